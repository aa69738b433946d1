/**
 * How deeply a JSON text nests arrays and objects, counted without parsing it: a value nested
 * deeper than the code that walks it can recurse (JSON.parse, JSON.stringify, the payload walk)
 * would end a process with a stack overflow instead of an error saying which line is wrong.
 */

const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** True when `text` opens more than `limit` arrays or objects inside one another (strings skipped). */
export function nestsDeeperThan(text: string, limit: number): boolean {
  // Nesting deeper than `limit` takes more than `limit` characters: most lines are shorter.
  if (text.length <= limit) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // Jump to the string's closing quote: the next quote not escaped (preceded by an even number of backslashes).
      for (;;) {
        i = text.indexOf('"', i + 1);
        if (i === -1) return false;
        let backslashes = 0;
        while (text.charCodeAt(i - 1 - backslashes) === BACKSLASH) backslashes++;
        if (backslashes % 2 === 0) break;
      }
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > limit) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
  }
  return false;
}
