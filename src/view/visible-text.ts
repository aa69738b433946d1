/**
 * Text that came from content (files, commands, models) made safe to print on a terminal: every
 * control character that could move the cursor, erase or rewrite what was printed, set the
 * window title or write the clipboard (ESC sequences, OSC 52, a lone carriage return, C1 codes)
 * or reorder what is shown (bidirectional overrides) is written out visibly as an escape, such as
 * `\x1b`. Newlines and tabs stay, and so does a carriage return that ends a line (CRLF files).
 * verbatim's own styling is added around this text, never through it.
 */

// C0 controls but tab and newline, a CR not followed by LF, DEL, C1 controls, and the bidi embeddings, overrides and isolates.
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|\r(?!\n)/g;

const escaped = (ch: string): string => {
  const code = ch.codePointAt(0) as number;
  if (ch === "\r") return "\\r";
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u{${code.toString(16)}}`;
};

/** `text` with its control characters shown as escapes (see above). */
export function visible(text: string): string {
  return text.replace(CONTROL, escaped);
}
