import type { ToolCallContent } from "@agentclientprotocol/sdk";
import { z } from "zod";
import { editNotebook, type CellEdit } from "./files/notebook.ts";
import { FileProblem, readText, sha256, staleness, writeText } from "./files/text-files.ts";
import { confine, PathError } from "./paths.ts";
import { failed, type Prepared, type Tool, type ToolContext } from "./tool.ts";

const input = z.lazy(() =>
  z.object({
    notebook_path: z.string().describe("The absolute path of the Jupyter notebook (.ipynb) to change"),
    cell_id: z
      .string()
      .optional()
      .describe(
        "The id of the cell to replace or delete, or after which to insert (without it, insert puts the cell first)",
      ),
    new_source: z.string().describe("The new source of the cell (ignored when deleting)"),
    cell_type: z
      .enum(["code", "markdown"])
      .optional()
      .describe("The cell's type: required to insert; when replacing, changes the cell's type"),
    edit_mode: z
      .enum(["replace", "insert", "delete"])
      .optional()
      .describe("replace (the default) sets a cell's source, insert adds a cell, delete removes one"),
  }),
);
type Input = z.infer<typeof input>;

const diff = (path: string, oldText: string, newText: string): ToolCallContent => ({
  type: "diff",
  path,
  oldText,
  newText,
});

const editOf = (i: Input): CellEdit => ({
  cell_id: i.cell_id,
  new_source: i.new_source,
  cell_type: i.cell_type,
  edit_mode: i.edit_mode,
});

/**
 * The diff an edit will write, from the notebook as it is now; a problem when it cannot be made
 * (no such cell, not a notebook, the file missing, unread or changed since it was read). A path
 * outside the roots is no problem here: the permission gate asks about it, and the run confines it.
 */
async function prepareCellEdit(i: Input, ctx: Pick<ToolContext, "roots" | "host" | "seenFiles">): Promise<Prepared> {
  let path: string;
  let current: string;
  try {
    path = confine(i.notebook_path, ctx.roots);
    current = await readText(ctx.host, path, ctx.roots);
  } catch (error) {
    if (error instanceof PathError) return { content: [] };
    if (error instanceof FileProblem) return { content: [], problem: error.message };
    throw error;
  }
  const stale = staleness(path, current, ctx.seenFiles);
  if (stale) return { content: [], problem: stale };
  const edited = editNotebook(path, current, editOf(i));
  return edited.ok ? { content: [diff(path, current, edited.text)] } : { content: [], problem: edited.message };
}

/** Replaces, inserts or deletes one cell of a notebook the model has read, refusing if it changed since. */
export const notebookEditTool: Tool<Input> = {
  name: "NotebookEdit",
  description:
    "Replaces, inserts or deletes one cell of a Jupyter notebook (.ipynb). notebook_path must be absolute, and the notebook must " +
    "have been read with Read in this session (an edit to a notebook that changed since it was read is refused: read it again). " +
    "Cells are named by the ids Read shows. edit_mode replace (the default) sets the cell's source and clears a code cell's outputs; " +
    "insert adds a cell of cell_type after cell_id (first without cell_id); delete removes the cell.",
  input,
  kind: "edit",
  access: "edit",
  title: (i) => {
    const mode = i.edit_mode ?? "replace";
    const where = i.cell_id ? ` cell ${i.cell_id}` : mode === "insert" ? " a cell first" : "";
    return `Edit ${i.notebook_path} (${mode}${mode === "insert" && i.cell_id ? " after" : ""}${where})`;
  },
  locations: (i) => [{ path: i.notebook_path }],
  async preview(i, ctx) {
    // A rewritten input's diff (hooks): shown whatever the model has read.
    const path = confine(i.notebook_path, ctx.roots);
    const current = await readText(ctx.host, path, ctx.roots);
    const edited = editNotebook(path, current, editOf(i));
    return edited.ok ? [diff(path, current, edited.text)] : [];
  },
  prepare: prepareCellEdit,
  async run(i, ctx) {
    try {
      const path = confine(i.notebook_path, ctx.roots);
      const current = await readText(ctx.host, path, ctx.roots);
      const stale = staleness(path, current, ctx.seenFiles);
      if (stale) return failed(stale);
      const edited = editNotebook(path, current, editOf(i));
      if (!edited.ok) return failed(edited.message);
      await writeText(ctx.host, path, edited.text, ctx.roots);
      return {
        status: "completed",
        content: [diff(path, current, edited.text)],
        rawOutput: { cell_id: edited.cell, edit_mode: i.edit_mode ?? "replace" },
        result: { text: `${edited.summary} of ${path}.`, isError: false },
        seen: [{ path, sha256: sha256(edited.text) }],
      };
    } catch (error) {
      if (error instanceof PathError || error instanceof FileProblem) return failed(error.message);
      throw error;
    }
  },
};
