/** The chat's line editor, in its pure parts: the keys a raw terminal sends, the text edited, and its layout. */
import { describe, expect, test } from "bun:test";
import { EditBuffer } from "../../src/cli/terminal/edit-buffer.ts";
import { layout } from "../../src/cli/terminal/edit-layout.ts";
import { KeyDecoder } from "../../src/cli/terminal/keys.ts";

describe("the keys of a raw terminal", () => {
  test("a paste is one key with its line breaks as newlines, even split across reads", () => {
    const keys = new KeyDecoder();
    expect(keys.push("\x1b[200~one\rtw")).toEqual([]);
    expect(keys.push("o\r\nthree\x1b[20")).toEqual([]);
    expect(keys.push("1~\r")).toEqual([
      { kind: "paste", text: "one\ntwo\nthree" },
      { kind: "key", name: "enter" },
    ]);
  });

  test("Enter, Ctrl-J, Alt+Enter, arrows and controls are keys; an escape sequence split across reads waits for its end", () => {
    const keys = new KeyDecoder();
    expect(keys.push("ab\r\n\x1b\r\x03\x04")).toEqual([
      { kind: "text", text: "ab" },
      { kind: "key", name: "enter" },
      { kind: "key", name: "newline" },
      { kind: "key", name: "newline" },
      { kind: "key", name: "interrupt" },
      { kind: "key", name: "eof" },
    ]);
    expect(keys.push("\x1b[")).toEqual([]);
    expect(keys.push("A\x1bOB\x1b[3~")).toEqual([
      { kind: "key", name: "up" },
      { kind: "key", name: "down" },
      { kind: "key", name: "delete" },
    ]);
  });

  test("an unknown sequence or control is dropped, never inserted as text", () => {
    expect(new KeyDecoder().push("a\x1b[99;9Zb\x07c")).toEqual([{ kind: "text", text: "abc" }]);
  });
});

describe("the text being typed", () => {
  test("edits at the cursor, by code point", () => {
    const b = new EditBuffer("ab😀");
    b.edit("left");
    b.insert("X");
    expect(b.text).toBe("abX😀");
    b.edit("end");
    b.edit("backspace");
    expect(b.text).toBe("abX");
  });

  test("Home, End and the kill keys act on the cursor's line", () => {
    const b = new EditBuffer("first\nsecond line");
    b.edit("home");
    expect(b.cursor).toBe(6);
    b.edit("kill-end");
    expect(b.text).toBe("first\n");
    b.insert("other words");
    b.edit("delete-word");
    expect(b.text).toBe("first\nother ");
  });
});

describe("the layout of a prompt and its text", () => {
  test("lines after the first are indented under the prompt, and the cursor is placed in its line", () => {
    const drawn = layout("› ", "one\ntwo", 5, 80);
    expect(drawn).toEqual({ text: "› one\r\n  two", endRow: 1, cursorRow: 1, cursorCol: 3 });
  });

  test("a line longer than the terminal wraps, and control characters are drawn as escapes", () => {
    expect(layout("› ", "abcdefgh", 8, 4)).toEqual({ text: "› abcdefgh", endRow: 2, cursorRow: 2, cursorCol: 2 });
    // Text that fills its last row exactly: the cursor at its end goes to a row of its own.
    expect(layout("› ", "abcdef", 6, 4)).toEqual({ text: "› abcdef\r\n", endRow: 2, cursorRow: 2, cursorCol: 0 });
    expect(layout("› ", "a\x1bb", 3, 80).text).toBe("› a\\x1bb");
  });
});
