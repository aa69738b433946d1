/** Diff cards drawn as unified diffs. */
import { describe, expect, test } from "bun:test";
import { diffLines, unifiedDiff } from "../../src/view/unified-diff.ts";

const numbered = (n: number) => `${Array.from({ length: n }, (_, i) => `line ${i + 1}`).join("\n")}\n`;

describe("unifiedDiff", () => {
  test("one changed line shows with three lines of context each side", () => {
    const before = numbered(10);
    const after = before.replace("line 5\n", "line five\n");
    expect(unifiedDiff("/w/a.txt", before, after)).toBe(
      [
        "--- /w/a.txt",
        "+++ /w/a.txt",
        "@@ -2,7 +2,7 @@",
        " line 2",
        " line 3",
        " line 4",
        "-line 5",
        "+line five",
        " line 6",
        " line 7",
        " line 8",
      ].join("\n"),
    );
  });

  test("a new file is all additions against /dev/null", () => {
    expect(unifiedDiff("/w/new.md", null, "# Notes\n\nWritten.\n")).toBe(
      ["--- /dev/null", "+++ /w/new.md", "@@ -0,0 +1,3 @@", "+# Notes", "+", "+Written."].join("\n"),
    );
  });

  test("changes far apart get a hunk each; changes close together share one", () => {
    const before = numbered(30);
    const far = before.replace("line 2\n", "line two\n").replace("line 25\n", "line twenty-five\n");
    expect(unifiedDiff("f", before, far).match(/^@@/gm)).toHaveLength(2);
    const near = before.replace("line 10\n", "line ten\n").replace("line 15\n", "line fifteen\n");
    expect(unifiedDiff("f", before, near).match(/^@@/gm)).toHaveLength(1);
  });

  test("an inserted and a removed line are aligned around what stayed", () => {
    expect(diffLines(["a", "b", "c", "d"], ["a", "x", "b", "d"])).toEqual([
      { op: " ", line: "a" },
      { op: "+", line: "x" },
      { op: " ", line: "b" },
      { op: "-", line: "c" },
      { op: " ", line: "d" },
    ]);
  });

  test("a pure deletion names the line before it in the new file", () => {
    expect(unifiedDiff("f", "a\nb\n", "a\n", 0)).toBe(["--- f", "+++ f", "@@ -2 +1,0 @@", "-b"].join("\n"));
  });

  test("a change only to the final newline is said in words", () => {
    expect(unifiedDiff("f", "a\n", "a")).toContain("(only the end of the last line changed)");
  });
});
