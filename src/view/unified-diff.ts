/**
 * A diff card's old and new text as a unified diff, the way a person reads a change: hunks of
 * changed lines with a few lines of context. Pure.
 */

type Op = { op: " " | "-" | "+"; line: string };

/** Lines of a text; a final newline ends the last line rather than starting an empty one. */
function linesOf(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** Above this many cells the middle of a change is shown as removed then added, not aligned. */
const MAX_TABLE_CELLS = 4_000_000;

/** The edit script from `a` to `b`: common prefix and suffix, a longest common subsequence between. */
export function diffLines(a: string[], b: string[]): Op[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const same = (lines: string[]): Op[] => lines.map((line) => ({ op: " ", line }));
  return [...same(a.slice(0, start)), ...middle(a.slice(start, endA), b.slice(start, endB)), ...same(a.slice(endA))];
}

function middle(a: string[], b: string[]): Op[] {
  const removed: Op[] = a.map((line) => ({ op: "-", line }));
  const added: Op[] = b.map((line) => ({ op: "+", line }));
  if (a.length === 0 || b.length === 0 || (a.length + 1) * (b.length + 1) > MAX_TABLE_CELLS)
    return [...removed, ...added];
  // lcs[i][j]: the longest common subsequence of a[i..] and b[j..], in a flat table.
  const width = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * width + j] =
        a[i] === b[j]
          ? lcs[(i + 1) * width + j + 1]! + 1
          : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      ops.push({ op: " ", line: a[i]! });
      i++;
      j++;
    } else if (lcs[(i + 1) * width + j]! >= lcs[i * width + j + 1]!) ops.push({ op: "-", line: a[i++]! });
    else ops.push({ op: "+", line: b[j++]! });
  }
  while (i < a.length) ops.push({ op: "-", line: a[i++]! });
  while (j < b.length) ops.push({ op: "+", line: b[j++]! });
  return ops;
}

/**
 * `--- path` / `+++ path` and `@@ -a,n +b,m @@` hunks with `context` lines around each change.
 * A new file (no old text) is diffed against /dev/null.
 */
export function unifiedDiff(path: string, oldText: string | null | undefined, newText: string, context = 3): string {
  const ops = diffLines(linesOf(oldText ?? ""), linesOf(newText));
  const header = [`--- ${oldText == null ? "/dev/null" : path}`, `+++ ${path}`];
  const changed = ops.flatMap((o, index) => (o.op === " " ? [] : [index]));
  if (changed.length === 0) {
    return [...header, oldText === newText ? "(no change)" : "(only the end of the last line changed)"].join("\n");
  }
  // Group changes whose context windows touch into one hunk each.
  const hunks: [number, number][] = [];
  for (const index of changed) {
    const from = Math.max(0, index - context);
    const to = Math.min(ops.length - 1, index + context);
    const last = hunks[hunks.length - 1];
    if (last && from <= last[1] + 1) last[1] = to;
    else hunks.push([from, to]);
  }
  const out = [...header];
  for (const [from, to] of hunks) {
    const before = ops.slice(0, from);
    const body = ops.slice(from, to + 1);
    const oldStart = before.filter((o) => o.op !== "+").length;
    const newStart = before.filter((o) => o.op !== "-").length;
    const oldCount = body.filter((o) => o.op !== "+").length;
    const newCount = body.filter((o) => o.op !== "-").length;
    out.push(`@@ -${range(oldStart, oldCount)} +${range(newStart, newCount)} @@`);
    for (const o of body) out.push(`${o.op}${o.line}`);
  }
  return out.join("\n");
}

/** A hunk range: 1-based start and count; an empty range names the line before it. */
const range = (start: number, count: number) =>
  count === 0 ? `${start},0` : count === 1 ? `${start + 1}` : `${start + 1},${count}`;
