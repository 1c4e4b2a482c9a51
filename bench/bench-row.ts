/** One line of a benchmark table: throughput of the credkit path next to the raw-crypto floor measured in the same run. */
export interface BenchRow {
  name: string;
  opsPerSec: number;
  /** the same operation straight on node:crypto / noble, no credkit layers */
  baselineOpsPerSec?: number;
  /** opsPerSec / baselineOpsPerSec (1.0 = no overhead) */
  ratio?: number;
}

/** Render rows as an aligned text table. */
export function formatBenchTable(rows: readonly BenchRow[]): string {
  const header = ["benchmark", "ops/s", "raw ops/s", "ratio"];
  const lines = rows.map((row) => [
    row.name,
    Math.round(row.opsPerSec).toLocaleString("en-US"),
    row.baselineOpsPerSec === undefined ? "" : Math.round(row.baselineOpsPerSec).toLocaleString("en-US"),
    row.ratio === undefined ? "" : row.ratio.toFixed(3),
  ]);
  const widths = header.map((cell, i) => Math.max(cell.length, ...lines.map((line) => line[i]!.length)));
  const render = (cells: string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  ");
  return [render(header), widths.map((width) => "-".repeat(width)).join("  "), ...lines.map(render)].join("\n");
}
