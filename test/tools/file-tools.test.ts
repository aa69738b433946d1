/** Read, Write and Edit: what they show, what they tell the model, and what they refuse. */
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { editTool } from "../../src/core/tools/edit.ts";
import { readTool } from "../../src/core/tools/read.ts";
import type { ToolHost } from "../../src/core/tools/tool.ts";
import { writeTool } from "../../src/core/tools/write.ts";
import { runTool, shown } from "../support/tool-run.ts";
import { README_TEXT, sandbox } from "../support/workspace.ts";

const setup = () => {
  const box = sandbox();
  return { ws: box.workspace, readme: join(box.workspace, "README.md"), seenFiles: new Map<string, string>() };
};

describe("Read", () => {
  test("returns numbered lines, from offset for limit lines", async () => {
    const { ws, readme } = setup();
    const all = await runTool(readTool, { file_path: readme }, { cwd: ws });
    expect(all.result.text).toBe("     1\t# Sample\n     2\t\n     3\tLine three.\n     4\tLine four.");
    const part = await runTool(readTool, { file_path: readme, offset: 3, limit: 1 }, { cwd: ws });
    expect(part.result.text).toBe("     3\tLine three.");
  });

  test("stops at 2000 lines and says how to read on", async () => {
    const { ws } = setup();
    const path = join(ws, "long.txt");
    writeFileSync(path, Array.from({ length: 2500 }, (_, i) => `line ${i + 1}`).join("\n"));
    const outcome = await runTool(readTool, { file_path: path }, { cwd: ws });
    expect(outcome.result.text).toContain("  2000\tline 2000");
    expect(outcome.result.text).not.toContain("line 2001");
    expect(outcome.result.text).toEndWith("(Showing lines 1-2000 of 2500; use offset and limit to read more.)");
    expect(shown(outcome)).toContain("(Showing lines 1-2000 of 2500");
  });

  test("reads what the editor has (unsaved changes) when the client offers fs", async () => {
    const { ws, readme } = setup();
    const host: ToolHost = { readTextFile: async () => "unsaved text in the editor\n" };
    const outcome = await runTool(readTool, { file_path: readme }, { cwd: ws, host });
    expect(outcome.result.text).toBe("     1\tunsaved text in the editor");
  });

  test("a missing file or a directory is an error the model can act on", async () => {
    const { ws } = setup();
    expect((await runTool(readTool, { file_path: join(ws, "nope.md") }, { cwd: ws })).result).toEqual({
      text: `File does not exist: ${ws}/nope.md`,
      isError: true,
    });
    expect((await runTool(readTool, { file_path: ws }, { cwd: ws })).result.text).toContain("is a directory");
  });
});

describe("Edit", () => {
  test("replaces text in a file that was read, and shows the whole change as a diff", async () => {
    const { ws, readme, seenFiles } = setup();
    await runTool(readTool, { file_path: readme }, { cwd: ws, seenFiles });
    const outcome = await runTool(
      editTool,
      { file_path: readme, old_string: "Line three.", new_string: "Line 3." },
      { cwd: ws, seenFiles },
    );
    expect(outcome.status).toBe("completed");
    expect(outcome.content).toEqual([
      { type: "diff", path: readme, oldText: README_TEXT, newText: README_TEXT.replace("Line three.", "Line 3.") },
    ]);
    expect(outcome.result.text).toContain("replaced 1 occurrence");
    expect(outcome.result.text).toContain("     3\tLine 3.");
    expect(readFileSync(readme, "utf8")).toContain("Line 3.");
  });

  test("refuses a file that was never read, and tells the model to read it", async () => {
    const { ws, readme, seenFiles } = setup();
    const outcome = await runTool(
      editTool,
      { file_path: readme, old_string: "Line three.", new_string: "x" },
      { cwd: ws, seenFiles },
    );
    expect(outcome.status).toBe("failed");
    expect(outcome.result.text).toContain("has not been read in this session. Read it first");
    expect(readFileSync(readme, "utf8")).toBe(README_TEXT);
  });

  test("refuses a file changed since it was read, and tells the model to read it again", async () => {
    const { ws, readme, seenFiles } = setup();
    await runTool(readTool, { file_path: readme }, { cwd: ws, seenFiles });
    writeFileSync(readme, `${README_TEXT}A line the user added.\n`);
    const outcome = await runTool(
      editTool,
      { file_path: readme, old_string: "Line three.", new_string: "x" },
      { cwd: ws, seenFiles },
    );
    expect(outcome.status).toBe("failed");
    expect(outcome.result.text).toContain("has changed since you last read it");
    expect(outcome.result.text).toContain("Read it again");
    expect(readFileSync(readme, "utf8")).toContain("A line the user added.");
  });

  test("a second edit after the model's own edit needs no new read", async () => {
    const { ws, readme, seenFiles } = setup();
    await runTool(readTool, { file_path: readme }, { cwd: ws, seenFiles });
    await runTool(
      editTool,
      { file_path: readme, old_string: "Line three.", new_string: "Line 3." },
      { cwd: ws, seenFiles },
    );
    const second = await runTool(
      editTool,
      { file_path: readme, old_string: "Line four.", new_string: "Line 4." },
      { cwd: ws, seenFiles },
    );
    expect(second.status).toBe("completed");
  });

  test("text that is missing or not unique is explained; replace_all changes every occurrence", async () => {
    const { ws, seenFiles } = setup();
    const path = join(ws, "dup.txt");
    writeFileSync(path, "a\nb\na\n");
    await runTool(readTool, { file_path: path }, { cwd: ws, seenFiles });
    expect(
      (await runTool(editTool, { file_path: path, old_string: "zzz", new_string: "y" }, { cwd: ws, seenFiles })).result
        .text,
    ).toContain("was not found");
    expect(
      (await runTool(editTool, { file_path: path, old_string: "a", new_string: "c" }, { cwd: ws, seenFiles })).result
        .text,
    ).toContain("occurs 2 times");
    const all = await runTool(
      editTool,
      { file_path: path, old_string: "a", new_string: "c", replace_all: true },
      { cwd: ws, seenFiles },
    );
    expect(all.result.text).toContain("replaced 2 occurrences");
    expect(readFileSync(path, "utf8")).toBe("c\nb\nc\n");
  });
});

describe("Write", () => {
  test("creates a new file (and its directories) without a read", async () => {
    const { ws, seenFiles } = setup();
    const path = join(ws, "docs", "new.md");
    const outcome = await runTool(writeTool, { file_path: path, content: "one\ntwo\n" }, { cwd: ws, seenFiles });
    expect(outcome.result.text).toBe(`Created ${path} (2 lines).`);
    expect(outcome.content).toEqual([{ type: "diff", path, oldText: null, newText: "one\ntwo\n" }]);
    expect(readFileSync(path, "utf8")).toBe("one\ntwo\n");
  });

  test("refuses to overwrite a file not read, or changed since it was read", async () => {
    const { ws, readme, seenFiles } = setup();
    expect(
      (await runTool(writeTool, { file_path: readme, content: "gone" }, { cwd: ws, seenFiles })).result.text,
    ).toContain("Read it first");
    await runTool(readTool, { file_path: readme }, { cwd: ws, seenFiles });
    writeFileSync(readme, "changed by the user\n");
    expect(
      (await runTool(writeTool, { file_path: readme, content: "gone" }, { cwd: ws, seenFiles })).result.text,
    ).toContain("has changed since you last read it");
    expect(readFileSync(readme, "utf8")).toBe("changed by the user\n");
  });

  test("writes through the client's editor when it offers fs", async () => {
    const { ws, seenFiles } = setup();
    const written: [string, string][] = [];
    const host: ToolHost = { writeTextFile: async (path, content) => void written.push([path, content]) };
    const path = join(ws, "via-editor.txt");
    const outcome = await runTool(writeTool, { file_path: path, content: "hello" }, { cwd: ws, seenFiles, host });
    expect(outcome.status).toBe("completed");
    expect(written).toEqual([[path, "hello"]]);
  });
});
