/**
 * What a client terminal printed since the last look. `terminal/output` answers with everything
 * the terminal kept, which the client cuts from the start once it passes the byte limit: the new
 * text is what follows the longest end of the text seen before that the terminal's output starts
 * with. When nothing of it is left (more than the limit was printed between two looks), the whole
 * output is new, and what the client dropped before it was never seen by anyone.
 */

/** A character no decoded output holds (a lone high surrogate), between the two texts the overlap is measured on. */
const SEPARATOR = "\uD800";

export function terminalOutputDelta(seen: string, output: string): string {
  if (output.startsWith(seen)) return output.slice(seen.length);
  return output.slice(overlap(seen, output));
}

/** The length of the longest suffix of `before` that is a prefix of `after` (Knuth-Morris-Pratt's prefix function). */
function overlap(before: string, after: string): number {
  const text = `${after}${SEPARATOR}${before}`;
  const prefix = new Int32Array(text.length);
  for (let i = 1; i < text.length; i++) {
    let k = prefix[i - 1] ?? 0;
    while (k > 0 && text[i] !== text[k]) k = prefix[k - 1] ?? 0;
    if (text[i] === text[k]) k++;
    prefix[i] = k;
  }
  return Math.min(prefix[text.length - 1] ?? 0, before.length, after.length);
}
