/**
 * The lines of a large file, streamed from an open descriptor: only what is asked for is kept,
 * every line cut at a length, so a file of any size is read in constant memory and the reading
 * stops as soon as the window is full.
 */
import { StringDecoder } from "node:string_decoder";
import { readBytes, type OpenedFile } from "../../confinement/open-file.ts";

const CHUNK = 1024 * 1024;

export type LineWindow = { lines: string[]; cut: boolean[]; more: boolean; reachedLine: number };

/**
 * Lines `start` (0-based) up to `start + count`, each kept to `maxChars` characters (`cut` says
 * which were longer), at most `maxTotal` characters in all (a first line always). `more` says
 * whether the file goes on after them; `reachedLine` is how many lines the file was seen to have
 * when the reading stopped (all of them when `more` is false).
 */
export function readLineWindow(
  file: OpenedFile,
  start: number,
  count: number,
  maxChars: number,
  maxTotal: number,
  signal?: AbortSignal,
): LineWindow {
  const decoder = new StringDecoder("utf8");
  const lines: string[] = [];
  const cut: boolean[] = [];
  let line = 0;
  let current = "";
  let currentCut = false;
  let total = 0;
  let position = 0;
  let full = false;
  let open = false; // text seen since the last newline
  const take = (text: string) => {
    if (text.length > 0) open = true;
    if (line < start || full) return;
    if (current.length < maxChars + 1) current += text.slice(0, maxChars + 1 - current.length);
    if (text.length > 0 && current.length > maxChars) currentCut = true;
  };
  const endLine = () => {
    if (line >= start && !full) {
      const shown = current.slice(0, maxChars);
      if (lines.length > 0 && total + shown.length > maxTotal) full = true;
      else {
        lines.push(shown);
        cut.push(currentCut);
        total += shown.length + 1;
        if (lines.length >= count) full = true;
      }
    }
    line++;
    open = false;
    current = "";
    currentCut = false;
  };
  while (!signal?.aborted) {
    const bytes = readBytes(file, position, CHUNK);
    if (bytes.length === 0) break;
    position += bytes.length;
    const text = decoder.write(bytes);
    let from = 0;
    for (let nl = text.indexOf("\n"); nl >= 0; nl = text.indexOf("\n", from)) {
      if (full) return { lines, cut, more: true, reachedLine: line };
      take(text.slice(from, nl));
      endLine();
      from = nl + 1;
    }
    if (full) return { lines, cut, more: position < file.size || from < text.length, reachedLine: line };
    take(text.slice(from));
  }
  const rest = decoder.end();
  take(rest);
  if (open && !full) endLine();
  return { lines, cut, more: full || signal?.aborted === true, reachedLine: line };
}
