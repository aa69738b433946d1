/**
 * Random values for fuzzing, from a seeded generator: hostile strings (unicode line and paragraph
 * separators, lone surrogates, NUL, path traversal, huge), numbers JSON makes awkward, random
 * JSON values, and nesting deep enough to hurt a recursive reader.
 */
import { seededRandom } from "./seeded.ts";

export type Rng = {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** Picks by weight: `[[weight, value], ...]`. */
  weighted<T>(items: readonly (readonly [number, T])[]): T;
};

export function rng(seed: number): Rng {
  const next = seededRandom(seed);
  const int = (n: number) => Math.floor(next() * n);
  return {
    next,
    int,
    chance: (p) => next() < p,
    pick: <T>(items: readonly T[]) => items[int(items.length)] as T,
    weighted: <T>(items: readonly (readonly [number, T])[]) => {
      const total = items.reduce((sum, [w]) => sum + w, 0);
      let roll = next() * total;
      for (const [w, value] of items) {
        roll -= w;
        if (roll < 0) return value;
      }
      return (items[items.length - 1] as readonly [number, T])[1];
    },
  };
}

/** Strings that break naive code: separators JSON allows raw, surrogates, controls, paths. */
export const NASTY_STRINGS: readonly string[] = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\u2028",
  "\u2029",
  "line\u2028separator\u2029paragraph",
  "\ud800",
  "\udfff",
  "x\ud83d",
  "\udc00\ud800",
  "😀👩‍👩‍👧",
  "\u202eevil",
  "\ufeffbom",
  "e\u0301\u0301\u0301",
  "\r",
  "\r\n",
  "\t\u000b\u000c",
  "\u001b[31mred",
  "\u007f\u0085\u00a0",
  "../../etc/passwd",
  "..",
  "/",
  "/etc/passwd",
  "C:\\Windows\\system32",
  "\\\\server\\share",
  "%s%n%x",
  "${HOME}",
  "$(rm -rf /)",
  "<script>alert(1)</script>",
  "null",
  "undefined",
  "true",
  "0",
  "-1",
  "NaN",
  "{}",
  "[]",
  "__proto__",
  "constructor",
  "ses_",
  "ses_00000000000000000000",
  "session/prompt",
  "\\u0000",
  '"quoted"',
  "\\",
];

/** Numbers at JSON's edges (NaN and Infinity serialize to null). */
export const NASTY_NUMBERS: readonly number[] = [
  0,
  -0,
  1,
  -1,
  0.5,
  -1e-300,
  1e308,
  -1e308,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 63),
  2 ** 31,
  4294967296,
  1.7976931348623157e308,
  5e-324,
];

/** A random string: nasty, random code units (surrogates included), or huge. */
export function randomString(r: Rng, maxHuge = 64 * 1024): string {
  return r.weighted<() => string>([
    [5, () => r.pick(NASTY_STRINGS)],
    [3, () => Array.from({ length: r.int(12) }, () => String.fromCharCode(r.int(0x10000))).join("")],
    [3, () => Array.from({ length: 1 + r.int(16) }, () => String.fromCharCode(0x20 + r.int(0x5f))).join("")],
    [1, () => r.pick(["a", "\u2028", "é", "😀", "\ud800", "\u0000"]).repeat(1024 + r.int(maxHuge))],
  ])();
}

/** A random JSON value, at most `depth` levels deep. */
export function randomValue(r: Rng, depth = 3): unknown {
  const leaf = () =>
    r.weighted<() => unknown>([
      [2, () => null],
      [2, () => r.chance(0.5)],
      [3, () => r.pick(NASTY_NUMBERS)],
      [5, () => randomString(r, 4096)],
    ])();
  if (depth <= 0) return leaf();
  return r.weighted<() => unknown>([
    [6, leaf],
    [2, () => Array.from({ length: r.int(4) }, () => randomValue(r, depth - 1))],
    [2, () => Object.fromEntries(Array.from({ length: r.int(4) }, () => [randomKey(r), randomValue(r, depth - 1)]))],
  ])();
}

export function randomKey(r: Rng): string {
  return r.chance(0.5)
    ? r.pick(["id", "method", "params", "jsonrpc", "sessionId", "type", "text", "_meta", "__proto__", "constructor"])
    : randomString(r, 64);
}

/**
 * JSON text nested `depth` levels deep (arrays, objects or both), built as text: building it as a
 * value and serializing it would overflow this process's own stack first.
 */
export function deepNesting(r: Rng, depth: number): string {
  const kind = r.int(3);
  if (kind === 0) return "[".repeat(depth) + "]".repeat(depth);
  if (kind === 1) return `${'{"a":'.repeat(depth)}null${"}".repeat(depth)}`;
  let open = "";
  let close = "";
  for (let i = 0; i < depth; i++) {
    if (i % 2 === 0) {
      open += '{"k":';
      close = `}${close}`;
    } else {
      open += "[";
      close = `]${close}`;
    }
  }
  return `${open}1${close}`;
}
