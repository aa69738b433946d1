/** Read of a notebook (cells, outputs, images) and NotebookEdit (replace, insert, delete a cell). */
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { notebookEditTool } from "../../src/core/tools/notebook-edit.ts";
import { readTool } from "../../src/core/tools/read.ts";
import { imageBytes, notebookText } from "../support/media.ts";
import { runTool } from "../support/tool-run.ts";
import { sandbox } from "../support/workspace.ts";

async function notebookIn() {
  const ws = sandbox().workspace;
  const path = join(ws, "sales.ipynb");
  const png = await imageBytes(16, 12);
  writeFileSync(path, notebookText(png));
  return { ws, path, png, seenFiles: new Map<string, string>() };
}

type Cell = { id: string; cell_type: string; source: string[]; outputs?: unknown[]; execution_count?: number | null };
const cellsOf = (path: string) => (JSON.parse(readFileSync(path, "utf8")) as { cells: Cell[] }).cells;

describe("Read of a notebook", () => {
  test("shows its cells with their sources and outputs, and gives output images as images", async () => {
    const { ws, path, png } = await notebookIn();
    const outcome = await runTool(readTool, { file_path: path }, { cwd: ws });
    expect(outcome.result.text).toBe(
      [
        `Notebook ${path}:`,
        "Notebook (python, 2 cells)",
        "",
        '<cell id="intro" type="markdown">\n# Sales\nBy month.\n</cell>',
        "",
        '<cell id="plot" type="code" execution_count="3">\nprint(\'total\', 42)\nplot()\n</cell>\n' +
          '<output cell="plot" type="stream">\ntotal 42\n\n</output>\n' +
          '<output cell="plot" type="display_data">\n<Figure>\n[image image/png, given below]\n</output>',
      ].join("\n"),
    );
    expect(outcome.result.attachments).toEqual([
      { type: "image", data: png.toString("base64"), mimeType: "image/png" },
    ]);
    expect(outcome.content.at(-1)).toEqual({
      type: "content",
      content: { type: "image", data: png.toString("base64"), mimeType: "image/png" },
    });
  });

  test("a file that is not a notebook's JSON is refused saying so", async () => {
    const ws = sandbox().workspace;
    const path = join(ws, "broken.ipynb");
    writeFileSync(path, "{ not json");
    const outcome = await runTool(readTool, { file_path: path }, { cwd: ws });
    expect(outcome.result.text).toStartWith(`${path} is not a valid notebook: its JSON does not parse`);
  });
});

describe("NotebookEdit", () => {
  test("replaces a cell's source and clears the outputs of the old source, showing the change as a diff", async () => {
    const { ws, path, seenFiles } = await notebookIn();
    const before = readFileSync(path, "utf8");
    await runTool(readTool, { file_path: path }, { cwd: ws, seenFiles });
    const outcome = await runTool(
      notebookEditTool,
      { notebook_path: path, cell_id: "plot", new_source: "print(1)\nprint(2)" },
      { cwd: ws, seenFiles },
    );
    expect(outcome.result).toEqual({ text: `Replaced the source of cell plot of ${path}.`, isError: false });
    expect(cellsOf(path)[1]).toMatchObject({
      id: "plot",
      cell_type: "code",
      source: ["print(1)\n", "print(2)"],
      outputs: [],
      execution_count: null,
    });
    expect(outcome.content).toEqual([{ type: "diff", path, oldText: before, newText: readFileSync(path, "utf8") }]);
    // Only the cell edited changed: the file keeps Jupyter's layout.
    const changed = readFileSync(path, "utf8")
      .split("\n")
      .filter((line, n) => line !== before.split("\n")[n]);
    expect(changed.length).toBeLessThan(20);
  });

  test("inserts a cell after another, or first without cell_id", async () => {
    const { ws, path, seenFiles } = await notebookIn();
    await runTool(readTool, { file_path: path }, { cwd: ws, seenFiles });
    await runTool(
      notebookEditTool,
      { notebook_path: path, cell_id: "intro", new_source: "x = 1", cell_type: "code", edit_mode: "insert" },
      { cwd: ws, seenFiles },
    );
    await runTool(
      notebookEditTool,
      { notebook_path: path, new_source: "Top", cell_type: "markdown", edit_mode: "insert" },
      { cwd: ws, seenFiles },
    );
    const cells = cellsOf(path);
    expect(cells.map((c) => c.source.join(""))).toEqual([
      "Top",
      "# Sales\nBy month.",
      "x = 1",
      "print('total', 42)\nplot()",
    ]);
    expect(cells[2]).toMatchObject({ cell_type: "code", outputs: [], execution_count: null });
    expect(cells[2]?.id).toMatch(/^[0-9a-f]{8}$/);
  });

  test("replacing with another cell_type changes the cell's type, keeping its id", async () => {
    const { ws, path, seenFiles } = await notebookIn();
    await runTool(readTool, { file_path: path }, { cwd: ws, seenFiles });
    const outcome = await runTool(
      notebookEditTool,
      { notebook_path: path, cell_id: "intro", new_source: "x = 1", cell_type: "code" },
      { cwd: ws, seenFiles },
    );
    expect(outcome.result.text).toBe(`Replaced the source of cell intro (now a code cell) of ${path}.`);
    expect(cellsOf(path)[0]).toMatchObject({
      id: "intro",
      cell_type: "code",
      source: ["x = 1"],
      outputs: [],
      execution_count: null,
    });
  });

  test("deletes a cell", async () => {
    const { ws, path, seenFiles } = await notebookIn();
    await runTool(readTool, { file_path: path }, { cwd: ws, seenFiles });
    const outcome = await runTool(
      notebookEditTool,
      { notebook_path: path, cell_id: "intro", new_source: "", edit_mode: "delete" },
      { cwd: ws, seenFiles },
    );
    expect(outcome.result.text).toBe(`Deleted cell intro of ${path}.`);
    expect(cellsOf(path).map((c) => c.id)).toEqual(["plot"]);
  });

  test("refuses a notebook not read, or changed since it was read", async () => {
    const { ws, path, seenFiles } = await notebookIn();
    const edit = { notebook_path: path, cell_id: "intro", new_source: "# Changed" };
    expect((await runTool(notebookEditTool, edit, { cwd: ws, seenFiles })).result.text).toContain(
      "has not been read in this session",
    );
    await runTool(readTool, { file_path: path }, { cwd: ws, seenFiles });
    writeFileSync(path, notebookText(await imageBytes(4, 4)));
    expect((await runTool(notebookEditTool, edit, { cwd: ws, seenFiles })).result.text).toContain(
      "has changed since you last read it",
    );
  });

  test("a cell that does not exist, or an insert without a type, is an error naming what to fix", async () => {
    const { ws, path, seenFiles } = await notebookIn();
    await runTool(readTool, { file_path: path }, { cwd: ws, seenFiles });
    const missing = await runTool(
      notebookEditTool,
      { notebook_path: path, cell_id: "nope", new_source: "x" },
      { cwd: ws, seenFiles },
    );
    expect(missing.result.text).toBe(`${path} has no cell "nope". Its cells are: intro, plot.`);
    const untyped = await runTool(
      notebookEditTool,
      { notebook_path: path, new_source: "x", edit_mode: "insert" },
      { cwd: ws, seenFiles },
    );
    expect(untyped.result.text).toBe("Inserting a cell needs cell_type (code or markdown).");
  });
});
