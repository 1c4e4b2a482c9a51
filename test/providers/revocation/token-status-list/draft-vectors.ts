import { readFileSync } from "node:fs";
import type { StatusListBits } from "../../../../src/providers/revocation/token-status-list/index.js";

/** One test vector of draft-ietf-oauth-status-list Appendix C, read from test/fixtures/status-list/. */
export interface DraftVector {
  name: string;
  bits: StatusListBits;
  /** "All examples are initialized with a size of 2^20 entries" */
  size: number;
  /** index → status; every other index is 0 (VALID) */
  statuses: Map<number, number>;
  /** the JSON encoding's `lst` (§4.2), unfolded */
  lst: string;
  /** the CBOR encoding (§4.3), hex */
  cborHex: string;
}

const FIXTURES = new URL("../../../fixtures/status-list/", import.meta.url);

export const DRAFT_VECTOR_FILES = [
  "appendix-c1-1bit.txt",
  "appendix-c2-2bit.txt",
  "appendix-c3-4bit.txt",
  "appendix-c4-8bit.txt",
] as const;

/** Parses a fixture holding the draft text: `status[i] = 0b…` lines, then `lst:` and `cbor:` blocks folded over lines. */
export function loadDraftVector(file: string): DraftVector {
  const text = readFileSync(new URL(file, FIXTURES), "utf8");
  const bits = Number(/^bits: (\d+)$/m.exec(text)?.[1]) as StatusListBits;
  const size = Number(/^size: (\d+)$/m.exec(text)?.[1]);
  const statuses = new Map<number, number>();
  for (const match of text.matchAll(/^status\[(\d+)\]\s*=\s*0b([01]+)$/gm)) {
    statuses.set(Number(match[1]), Number.parseInt(match[2]!, 2));
  }
  const block = (label: string) => {
    const match = new RegExp(`^${label}:\\n((?:.+\\n?)+)`, "m").exec(text);
    if (!match) throw new Error(`${file}: no ${label} block`);
    return match[1]!.replace(/\s+/g, "");
  };
  return { name: file.replace(/\.txt$/, ""), bits, size, statuses, lst: block("lst"), cborHex: block("cbor") };
}
