import { formatBenchTable } from "./bench-row.js";
import { benchKeyAlgorithms } from "./key-algorithms.js";

// npx tsx bench/run-key-algorithms.ts
const rows = await benchKeyAlgorithms();
console.log(formatBenchTable(rows));
