/** Streaming a window of lines from a large file: chunk boundaries, a last line without a newline, long lines. */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { closeFile, openForRead } from "../../src/core/confinement/open-file.ts";
import { readLineWindow } from "../../src/core/tools/files/text-lines.ts";
import { sandbox } from "../support/workspace.ts";

function windowOf(text: string, start: number, count: number, maxChars = 2000, maxTotal = 1e9) {
  const box = sandbox();
  const path = join(box.workspace, "file.txt");
  writeFileSync(path, text);
  const file = openForRead(path, [box.workspace]);
  try {
    return readLineWindow(file, start, count, maxChars, maxTotal);
  } finally {
    closeFile(file);
  }
}

// 300,000 lines of about 12 bytes: several 1 MiB chunks.
const numbered = Array.from({ length: 300_000 }, (_, n) => `line ${n + 1}`).join("\n");

describe("readLineWindow", () => {
  test("a window far into the file, across chunk boundaries, is exact", () => {
    const w = windowOf(`${numbered}\n`, 200_000, 3);
    expect(w.lines).toEqual(["line 200001", "line 200002", "line 200003"]);
    expect(w.more).toBe(true);
  });

  test("the last line without a newline is a line, and nothing follows it", () => {
    const w = windowOf(numbered, 299_998, 10);
    expect(w.lines).toEqual(["line 299999", "line 300000"]);
    expect(w.more).toBe(false);
    expect(w.reachedLine).toBe(300_000);
  });

  test("a window past the end is empty and says how many lines there are", () => {
    const w = windowOf(`${numbered}\n`, 400_000, 10);
    expect(w.lines).toEqual([]);
    expect(w.reachedLine).toBe(300_000);
  });

  test("a line longer than the cut is kept to the cut and marked", () => {
    const w = windowOf(`${"x".repeat(3_000_000)}\nshort\n`, 0, 2, 2000);
    expect(w.lines.map((l) => l.length)).toEqual([2000, 5]);
    expect(w.cut).toEqual([true, false]);
  });

  test("the window stops at the total cut, after at least one line", () => {
    const w = windowOf(`${numbered}\n`, 0, 1000, 2000, 30);
    expect(w.lines).toEqual(["line 1", "line 2", "line 3", "line 4"]);
    expect(w.more).toBe(true);
  });
});
