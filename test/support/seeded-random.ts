/**
 * A tiny deterministic PRNG for fuzz-style tests (mulberry32: 32-bit state, good enough spread for test data, never
 * for cryptography). The same seed always yields the same sequence, so a failing run is reproduced from its seed.
 */
export interface SeededRandom {
  /** the seed this generator started from (log it) */
  readonly seed: number;
  /** a float in [0, 1) */
  next(): number;
  /** an integer in [min, max] (both inclusive) */
  int(min: number, max: number): number;
  /** true with probability `p` */
  bool(p?: number): boolean;
  /** one element of a non-empty array */
  pick<T>(items: readonly T[]): T;
  /** a string of `length` characters drawn from `alphabet` (default: printable ASCII) */
  string(length: number, alphabet?: string): string;
  /** a copy of `items` in random order */
  shuffle<T>(items: readonly T[]): T[];
}

const PRINTABLE_ASCII = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join("");

/** mulberry32 step function over a 32-bit state. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A generator for `seed` (any integer; only the low 32 bits count). */
export function seededRandom(seed: number): SeededRandom {
  const next = mulberry32(seed);
  const int = (min: number, max: number) => {
    if (!Number.isInteger(min) || !Number.isInteger(max) || max < min) throw new RangeError(`bad range ${min}..${max}`);
    return min + Math.floor(next() * (max - min + 1));
  };
  return {
    seed: seed >>> 0,
    next,
    int,
    bool: (p = 0.5) => next() < p,
    pick<T>(items: readonly T[]): T {
      if (items.length === 0) throw new RangeError("pick from an empty array");
      return items[int(0, items.length - 1)]!;
    },
    string(length, alphabet = PRINTABLE_ASCII) {
      let out = "";
      for (let i = 0; i < length; i++) out += alphabet[int(0, alphabet.length - 1)];
      return out;
    },
    shuffle<T>(items: readonly T[]): T[] {
      const copy = [...items];
      for (let i = copy.length - 1; i > 0; i--) {
        const j = int(0, i);
        [copy[i], copy[j]] = [copy[j]!, copy[i]!];
      }
      return copy;
    },
  };
}

/**
 * The seed of a test run: `process.env[envName]` when set (to replay a failure), otherwise a fresh random one. Log the
 * value so any failure can be replayed with `FUZZ_SEED=<seed> npx vitest run …`.
 */
export function chooseSeed(envName = "FUZZ_SEED"): number {
  const fromEnv = process.env[envName];
  if (fromEnv !== undefined && fromEnv.trim() !== "") {
    const parsed = Number(fromEnv);
    if (!Number.isInteger(parsed)) throw new Error(`${envName} must be an integer, got ${JSON.stringify(fromEnv)}`);
    return parsed >>> 0;
  }
  return Math.floor(Math.random() * 4294967296) >>> 0;
}
