/**
 * How a prompt and the text typed after it are laid out on a terminal `cols` wide: what to write
 * (its lines joined by CR LF, each line after the first indented under the prompt), which row
 * the writing ends on and where the cursor goes, rows counted from the prompt's first. A tab is
 * shown as four spaces and any other control character as an escape (`\x1b`), so that nothing
 * typed or pasted moves the terminal's cursor; every other character is taken as one column
 * wide. Pure.
 */
import { visible } from "../../view/visible-text.ts";

export type Layout = {
  /** What to write, from the prompt's first column. */
  text: string;
  /** The row the cursor is on once `text` is written. */
  endRow: number;
  /** Where the cursor belongs. */
  cursorRow: number;
  cursorCol: number;
};

/** A character as drawn. */
const shown = (ch: string): string => (ch === "\t" ? "    " : ch === "\n" ? "" : visible(ch));

const widthOf = (text: string): number => {
  let width = 0;
  for (const ch of text) width += [...shown(ch)].length;
  return width;
};

const drawn = (text: string): string => {
  let out = "";
  for (const ch of text) out += shown(ch);
  return out;
};

export function layout(prompt: string, text: string, cursor: number, cols: number): Layout {
  const promptWidth = [...prompt].length;
  const indent = " ".repeat(promptWidth);
  const lines = text.split("\n");
  const cursorLine = text.slice(0, cursor).split("\n").length - 1;
  const cursorOffset = cursor - (text.lastIndexOf("\n", cursor - 1) + 1);
  const rowsOf = (width: number) => (width === 0 ? 1 : Math.ceil(width / cols));
  let out = "";
  let row = 0;
  let endRow = 0;
  let cursorRow = 0;
  let cursorCol = 0;
  /** Whether a CR LF was added after a last line that fills its row, for the cursor at its end. */
  let extra = 0;
  lines.forEach((line, i) => {
    const width = promptWidth + widthOf(line);
    out += `${i === 0 ? prompt : `\r\n${indent}`}${drawn(line)}`;
    if (i === cursorLine) {
      const at = promptWidth + widthOf(line.slice(0, cursorOffset));
      const last = i === lines.length - 1;
      // At the very end of a line that fills its last row: the next row, made for it if the text ends there.
      const filled = at > 0 && at % cols === 0 && at === width;
      if (filled && last) {
        out += "\r\n";
        extra = 1;
      }
      cursorRow = row + (filled && !last ? at / cols - 1 : Math.floor(at / cols));
      cursorCol = filled && !last ? cols - 1 : at % cols;
    }
    endRow = row + (width === 0 ? 0 : Math.floor((width - 1) / cols));
    row += rowsOf(width);
  });
  return { text: out, endRow: endRow + extra, cursorRow, cursorCol };
}
