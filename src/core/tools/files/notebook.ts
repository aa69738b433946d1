/**
 * Jupyter notebooks (nbformat 4): the cells as the model reads them (source and outputs, images
 * apart), and the cell edits NotebookEdit makes. Pure: the caller reads and writes the file.
 */
import { z } from "zod";

/** The schema a notebook is checked against, built on first use: loading the engine reads no notebook. */
function schemas() {
  const source = z.union([z.string(), z.array(z.string())]);
  const output = z.looseObject({
    output_type: z.string(),
    text: source.optional(),
    name: z.string().optional(),
    data: z.record(z.string(), z.unknown()).optional(),
    ename: z.string().optional(),
    evalue: z.string().optional(),
    traceback: z.array(z.string()).optional(),
  });
  const cell = z.looseObject({
    cell_type: z.string(),
    id: z.string().optional(),
    source,
    outputs: z.array(output).optional(),
    execution_count: z.number().nullable().optional(),
  });
  return z.looseObject({
    cells: z.array(cell),
    metadata: z.looseObject({}).optional(),
    nbformat: z.number(),
    nbformat_minor: z.number().optional(),
  });
}

let notebookSchema: ReturnType<typeof schemas> | undefined;

export type Notebook = z.infer<ReturnType<typeof schemas>>;
type Cell = Notebook["cells"][number];
type Output = NonNullable<Cell["outputs"]>[number];

export class NotebookProblem extends Error {}

/** Parses a notebook's text; a NotebookProblem says why it is not one. */
export function parseNotebook(path: string, text: string): Notebook {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new NotebookProblem(
      `${path} is not a valid notebook: its JSON does not parse (${(error as Error).message}).`,
    );
  }
  notebookSchema ??= schemas();
  const parsed = notebookSchema.safeParse(json);
  if (!parsed.success) throw new NotebookProblem(`${path} is not a valid notebook: it has no list of cells.`);
  if (parsed.data.nbformat < 4)
    throw new NotebookProblem(
      `${path} is a version ${parsed.data.nbformat} notebook; Read and NotebookEdit take version 4.`,
    );
  // The parsed JSON itself, checked: zod's copy would reorder keys, and an edit would rewrite every cell.
  return json as Notebook;
}

const joined = (s: string | string[] | undefined) => (Array.isArray(s) ? s.join("") : (s ?? ""));

/** A cell's id: its own (nbformat 4.5), else `cell-<index>`, as Claude Code names cells without one. */
export const cellId = (c: Cell, index: number) => c.id ?? `cell-${index}`;

/** Terminal colour codes in tracebacks, which only add noise for the model. */
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*[A-Za-z]`, "g");

/** The most text one output gives the model; past it the output is cut with a note. */
const MAX_OUTPUT_CHARS = 10_000;

const cut = (text: string) =>
  text.length > MAX_OUTPUT_CHARS
    ? `${text.slice(0, MAX_OUTPUT_CHARS)}\n… (output cut at ${MAX_OUTPUT_CHARS} characters)`
    : text;

export type NotebookImage = { cell: string; mimeType: string; data: string };
export type RenderedNotebook = { text: string; images: NotebookImage[]; cells: number };

const IMAGE_OUTPUTS = ["image/png", "image/jpeg", "image/gif", "image/webp"];

/** An output as text for the model; its images are gathered apart. */
function outputText(o: Output, id: string, images: NotebookImage[]): string {
  if (o.output_type === "stream") return cut(joined(o.text));
  if (o.output_type === "error")
    return cut([`${o.ename ?? "Error"}: ${o.evalue ?? ""}`, ...(o.traceback ?? [])].join("\n").replace(ANSI, ""));
  const data = o.data ?? {};
  const parts: string[] = [];
  for (const mimeType of IMAGE_OUTPUTS) {
    const value = data[mimeType];
    if (typeof value === "string" || Array.isArray(value)) {
      images.push({ cell: id, mimeType, data: joined(value as string | string[]).replace(/\s/g, "") });
      parts.push(`[image ${mimeType}, given below]`);
    }
  }
  const plain = data["text/plain"];
  if (typeof plain === "string" || Array.isArray(plain)) parts.unshift(cut(joined(plain as string | string[])));
  return parts.join("\n");
}

/** The notebook as the model reads it: each cell with its id, type and source, then its outputs. */
export function renderNotebook(nb: Notebook): RenderedNotebook {
  const language = (nb.metadata?.language_info as { name?: string } | undefined)?.name ?? "python";
  const images: NotebookImage[] = [];
  const blocks = nb.cells.map((c, index) => {
    const id = cellId(c, index);
    const count = c.cell_type === "code" && c.execution_count != null ? ` execution_count="${c.execution_count}"` : "";
    const lines = [`<cell id="${id}" type="${c.cell_type}"${count}>`, joined(c.source), "</cell>"];
    for (const o of c.outputs ?? []) {
      const text = outputText(o, id, images);
      if (text) lines.push(`<output cell="${id}" type="${o.output_type}">`, text, "</output>");
    }
    return lines.join("\n");
  });
  return {
    text: [`Notebook (${language}, ${nb.cells.length} cells)`, ...blocks].join("\n\n"),
    images,
    cells: nb.cells.length,
  };
}

export type CellEdit = {
  cell_id?: string | undefined;
  new_source: string;
  cell_type?: "code" | "markdown" | undefined;
  edit_mode?: "replace" | "insert" | "delete" | undefined;
};

export type EditedNotebook = { ok: true; text: string; cell: string; summary: string } | { ok: false; message: string };

/** Source as Jupyter writes it: lines, each keeping its newline. */
const sourceLines = (text: string) => text.split(/(?<=\n)/).filter((l) => l !== "");

const findCell = (nb: Notebook, id: string) => nb.cells.findIndex((c, index) => cellId(c, index) === id);

/** A cell of a type, empty of outputs (a code cell) and with an id where the notebook's format has them. */
function newCell(nb: Notebook, type: "code" | "markdown", text: string): Cell {
  const withIds = nb.nbformat > 4 || (nb.nbformat === 4 && (nb.nbformat_minor ?? 0) >= 5);
  // The Web Crypto global: node:crypto would load Node's stream modules on the engine's load path.
  const id = withIds ? { id: Buffer.from(crypto.getRandomValues(new Uint8Array(4))).toString("hex") } : {};
  return type === "code"
    ? { cell_type: "code", ...id, metadata: {}, source: sourceLines(text), outputs: [], execution_count: null }
    : { cell_type: "markdown", ...id, metadata: {}, source: sourceLines(text) };
}

/** How the file was indented (Jupyter writes one space), so an edit changes only the cells it touches. */
function indentOf(text: string): number {
  const second = text.split("\n")[1] ?? "";
  return second.length - second.trimStart().length || 1;
}

/**
 * The notebook's new text after an edit, or why the edit cannot be made (in words the model can
 * act on). `replace` sets a cell's source (a code cell's outputs are cleared: they were of the old
 * source), and its type when given; `insert` adds a cell after `cell_id`, or first without one;
 * `delete` removes the cell.
 */
export function editNotebook(path: string, text: string, edit: CellEdit): EditedNotebook {
  let nb: Notebook;
  try {
    nb = parseNotebook(path, text);
  } catch (error) {
    if (error instanceof NotebookProblem) return { ok: false, message: error.message };
    throw error;
  }
  const mode = edit.edit_mode ?? "replace";
  const at = edit.cell_id === undefined ? -1 : findCell(nb, edit.cell_id);
  if (edit.cell_id !== undefined && at < 0) {
    const ids = nb.cells.map((c, i) => cellId(c, i)).join(", ");
    return { ok: false, message: `${path} has no cell "${edit.cell_id}". Its cells are: ${ids || "(none)"}.` };
  }
  let cell: string;
  let summary: string;
  if (mode === "insert") {
    if (!edit.cell_type) return { ok: false, message: "Inserting a cell needs cell_type (code or markdown)." };
    const added = newCell(nb, edit.cell_type, edit.new_source);
    nb.cells.splice(at + 1, 0, added);
    cell = cellId(added, at + 1);
    summary = `Inserted ${edit.cell_type} cell ${cell} ${at < 0 ? "at the start" : `after cell ${edit.cell_id}`}`;
  } else {
    if (edit.cell_id === undefined)
      return { ok: false, message: `${mode === "delete" ? "Deleting" : "Replacing"} a cell needs cell_id.` };
    cell = edit.cell_id;
    if (mode === "delete") {
      nb.cells.splice(at, 1);
      summary = `Deleted cell ${cell}`;
    } else {
      const old = nb.cells[at] as Cell;
      const retyped = edit.cell_type !== undefined && edit.cell_type !== old.cell_type;
      const replaced = retyped ? newCell(nb, edit.cell_type as "code" | "markdown", "") : { ...old };
      if (old.id !== undefined) replaced.id = old.id;
      replaced.source = sourceLines(edit.new_source);
      if (replaced.cell_type === "code") Object.assign(replaced, { outputs: [], execution_count: null });
      nb.cells[at] = replaced;
      summary = `Replaced the source of cell ${cell}${retyped ? ` (now a ${edit.cell_type} cell)` : ""}`;
    }
  }
  const indent = indentOf(text);
  return { ok: true, text: `${JSON.stringify(nb, null, indent)}\n`, cell, summary };
}
