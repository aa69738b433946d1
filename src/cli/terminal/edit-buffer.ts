/**
 * The text being typed at a prompt and where the cursor is in it: possibly several lines (a
 * paste, a newline typed), edited a character (a code point) or a word at a time; Home, End and
 * the kill keys act on the cursor's line. Pure.
 */
import type { KeyName } from "./keys.ts";

export class EditBuffer {
  constructor(
    public text = "",
    /** An index into `text` (UTF-16), never inside a surrogate pair. */
    public cursor = text.length,
  ) {}

  insert(text: string): void {
    this.text = this.text.slice(0, this.cursor) + text + this.text.slice(this.cursor);
    this.cursor += text.length;
  }

  /** Sets the whole text, the cursor at its end (a prompt taken from the history). */
  replace(text: string): void {
    this.text = text;
    this.cursor = text.length;
  }

  /** Applies an editing key; returns false for a key that does not edit (Enter, Up, Ctrl-C, ...). */
  edit(key: KeyName): boolean {
    const { text, cursor } = this;
    switch (key) {
      case "newline":
        this.insert("\n");
        return true;
      case "backspace":
        this.#remove(previous(text, cursor), cursor);
        return true;
      case "delete":
        this.#remove(cursor, next(text, cursor));
        return true;
      case "left":
        this.cursor = previous(text, cursor);
        return true;
      case "right":
        this.cursor = next(text, cursor);
        return true;
      case "word-left":
        this.cursor = wordStart(text, cursor);
        return true;
      case "word-right":
        this.cursor = wordEnd(text, cursor);
        return true;
      case "home":
        this.cursor = text.lastIndexOf("\n", cursor - 1) + 1;
        return true;
      case "end":
        this.cursor = lineEnd(text, cursor);
        return true;
      case "kill-start":
        this.#remove(text.lastIndexOf("\n", cursor - 1) + 1, cursor);
        return true;
      case "kill-end":
        this.#remove(cursor, lineEnd(text, cursor));
        return true;
      case "delete-word":
        this.#remove(wordStart(text, cursor), cursor);
        return true;
      default:
        return false;
    }
  }

  #remove(from: number, to: number): void {
    this.text = this.text.slice(0, from) + this.text.slice(to);
    this.cursor = from;
  }
}

const isLow = (text: string, at: number) => {
  const code = text.charCodeAt(at);
  return code >= 0xdc00 && code <= 0xdfff;
};

/** The index one code point before `at`. */
const previous = (text: string, at: number) => (at <= 0 ? 0 : at - (at >= 2 && isLow(text, at - 1) ? 2 : 1));

/** The index one code point after `at`. */
const next = (text: string, at: number) => (at >= text.length ? text.length : at + (isLow(text, at + 1) ? 2 : 1));

const lineEnd = (text: string, at: number) => {
  const end = text.indexOf("\n", at);
  return end < 0 ? text.length : end;
};

/** Where the word before `at` starts (spaces before it skipped), as shells move by words. */
function wordStart(text: string, at: number): number {
  let i = at;
  while (i > 0 && /\s/.test(text[i - 1] as string)) i--;
  while (i > 0 && !/\s/.test(text[i - 1] as string)) i--;
  return i;
}

function wordEnd(text: string, at: number): number {
  let i = at;
  while (i < text.length && /\s/.test(text[i] as string)) i++;
  while (i < text.length && !/\s/.test(text[i] as string)) i++;
  return i;
}
