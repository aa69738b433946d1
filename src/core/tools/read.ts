import { z } from "zod";
import { closeFile, openForRead, readBytes, type OpenedFile } from "../confinement/open-file.ts";
import { FileProblem, sha256, WHOLE_FILE_MAX_BYTES } from "./files/text-files.ts";
import { readLineWindow } from "./files/text-lines.ts";
import { fileKindOf, imageFormatByName } from "./files/file-kinds.ts";
import { corruptImage, readImage } from "./files/read-image.ts";
import { readNotebook } from "./files/read-notebook.ts";
import { readPdfFile } from "./files/read-pdf.ts";
import { confine, PathError } from "./paths.ts";
import { failed, fenced, textContent, type Tool, type ToolContext, type ToolOutcome } from "./tool.ts";

const input = z.lazy(() =>
  z.object({
    file_path: z.string().describe("The absolute path of the file to read"),
    offset: z.number().int().positive().optional().describe("The line number to start reading from (1-based)"),
    limit: z.number().int().positive().optional().describe("The number of lines to read"),
    pages: z
      .string()
      .optional()
      .describe(
        'For a PDF: the pages to read, such as "3", "1-5" or "1-3,8" (at most 20 a call; needed past 10 pages)',
      ),
  }),
);
type Input = z.infer<typeof input>;

const READ_MAX_LINES = 2000;
const MAX_LINE_CHARS = 2000;
/** The most text one read returns to the model; past it the read stops with a note. */
const READ_MAX_CHARS = 100_000;
/** How much of a file's start is looked at to tell its kind (a signature) or a binary file (a NUL byte there), as Grep does. */
const BINARY_SNIFF_BYTES = 8000;

const cutLine = (line: string, cut = line.length > MAX_LINE_CHARS) =>
  cut ? `${line.slice(0, MAX_LINE_CHARS)}… (line cut at ${MAX_LINE_CHARS} characters)` : line;

/**
 * Reads a text file, through the client's editor buffers when it offers `fs/read_text_file`.
 * A file up to WHOLE_FILE_MAX_BYTES is read whole (so its hash records what the model saw); a
 * larger one is streamed from disk and only the lines shown are kept (nothing is recorded as
 * seen, so it cannot be edited here). What a file is comes from its first bytes: an image, a PDF
 * or a notebook (by its name) is given to the model as such (files/read-image.ts, read-pdf.ts,
 * read-notebook.ts); another binary file is refused, naming what it is.
 */
export const readTool: Tool<Input> = {
  name: "Read",
  description:
    "Reads a file from the local filesystem. file_path must be absolute. By default reads up to 2000 lines from the start; " +
    "use offset and limit for long files. Lines are returned numbered from 1, each cut at 2000 characters. " +
    "Images (PNG, JPEG, GIF, WebP) are given to you as images, scaled down when they are large. " +
    "A Jupyter notebook (.ipynb) is shown as its cells, with their outputs (images as images). " +
    "A PDF is given to you as a document; one of more than 10 pages needs pages (at most 20 a call).",
  input,
  kind: "read",
  access: "read",
  title: (i) =>
    `Read ${i.file_path}${i.offset || i.limit ? ` (lines ${i.offset ?? 1}-${i.limit ? (i.offset ?? 1) + i.limit - 1 : "end"})` : ""}${i.pages ? ` (pages ${i.pages})` : ""}`,
  locations: (i) => [{ path: i.file_path, line: i.offset ?? 1 }],
  async run(i, ctx) {
    let path: string;
    let file: OpenedFile;
    try {
      path = confine(i.file_path, ctx.roots);
      file = opened(path, ctx.roots);
    } catch (error) {
      if (error instanceof PathError || error instanceof FileProblem) return failed(error.message);
      throw error;
    }
    try {
      if (path.toLowerCase().endsWith(".ipynb")) return await readNotebook(path, file, ctx.host);
      const special = await readByKind(path, file, readBytes(file, 0, BINARY_SNIFF_BYTES), i.pages);
      if (special) return special;
      // A background job's output file is read from disk: the editor has no buffer of it.
      const from = ctx.jobs?.outputRoot(path) ? { ...ctx, host: {} } : ctx;
      return file.size > WHOLE_FILE_MAX_BYTES ? streamed(path, file, i, from) : await whole(path, file, i, from);
    } catch (error) {
      if (error instanceof PathError || error instanceof FileProblem) return failed(error.message);
      return failed(`Could not read ${path}: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      closeFile(file);
    }
  },
};

/**
 * A file that is not read as text: an image (given to the model as an image), or another binary
 * file, refused naming what it is. Undefined for a text file.
 */
async function readByKind(
  path: string,
  file: OpenedFile,
  head: Buffer,
  pages: string | undefined,
): Promise<ToolOutcome | undefined> {
  const kind = fileKindOf(head);
  if (kind?.kind === "image") return readImage(path, file, kind.format);
  if (kind?.kind === "pdf") return readPdfFile(path, file, pages);
  const named = imageFormatByName(path);
  if (named && (head.includes(0) || file.size === 0))
    return corruptImage(path, named, "its content is not that image format");
  if (!head.includes(0)) return undefined;
  const what = kind?.kind === "other-binary" ? kind.what : "a binary file";
  return failed(`${path} is ${what} (${file.size} bytes); Read shows text files, images, PDFs and notebooks.`);
}

function opened(path: string, roots: readonly string[]): OpenedFile {
  try {
    return openForRead(path, roots);
  } catch (error) {
    if (error instanceof PathError) throw error;
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new FileProblem(`File does not exist: ${path}`);
    throw new FileProblem(`Could not read ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function whole(path: string, file: OpenedFile, i: Input, ctx: ToolContext): Promise<ToolOutcome> {
  const text = ctx.host.readTextFile
    ? await ctx.host.readTextFile(path)
    : readBytes(file, 0, file.size + 1).toString("utf8");
  const all = text.split("\n");
  if (all.length > 1 && all[all.length - 1] === "") all.pop();
  const start = (i.offset ?? 1) - 1;
  if (start > 0 && start >= all.length) {
    return failed(`${path} has ${all.length} lines; offset ${i.offset} is past the end. Use a smaller offset.`);
  }
  const wanted = Math.min(i.limit ?? READ_MAX_LINES, READ_MAX_LINES);
  const lines: string[] = [];
  let chars = 0;
  for (const line of all.slice(start, start + wanted)) {
    const shown = cutLine(line);
    if (chars + shown.length > READ_MAX_CHARS && lines.length > 0) break;
    lines.push(shown);
    chars += shown.length + 1;
  }
  const first = start + 1;
  const last = start + lines.length;
  const truncated = last < all.length && (i.limit === undefined || lines.length < i.limit);
  const note = truncated
    ? `\n(Showing lines ${first}-${last} of ${all.length}; use offset and limit to read more.)`
    : "";
  return shown(lines, first, note, { lines: lines.length, totalLines: all.length, truncated }, [
    { path, sha256: sha256(text) },
  ]);
}

/** A file too large to read whole: the window asked for, streamed; its line count is not known. */
function streamed(path: string, file: OpenedFile, i: Input, ctx: ToolContext): ToolOutcome {
  const start = (i.offset ?? 1) - 1;
  const wanted = Math.min(i.limit ?? READ_MAX_LINES, READ_MAX_LINES);
  const window = readLineWindow(file, start, wanted, MAX_LINE_CHARS, READ_MAX_CHARS, ctx.signal);
  if (window.lines.length === 0 && start > 0) {
    return failed(`${path} has ${window.reachedLine} lines; offset ${i.offset} is past the end. Use a smaller offset.`);
  }
  const lines = window.lines.map((line, n) => cutLine(line, window.cut[n]));
  const first = start + 1;
  const last = start + lines.length;
  const truncated = window.more && (i.limit === undefined || lines.length < i.limit);
  const size = `${file.size} bytes, too large to read whole, so only these lines were read and it cannot be edited here`;
  const note = truncated
    ? `\n(Showing lines ${first}-${last}; the file is ${size}. Use offset and limit to read more.)`
    : `\n(The file is ${size}.)`;
  return shown(lines, first, note, { lines: lines.length, truncated }, []);
}

function shown(
  lines: string[],
  first: number,
  note: string,
  rawOutput: Record<string, unknown>,
  seen: { path: string; sha256: string }[],
): ToolOutcome {
  const numbered = lines.map((line, n) => `${String(first + n).padStart(6)}\t${line}`).join("\n");
  return {
    status: "completed",
    content: [textContent(fenced(lines.join("\n")) + note)],
    rawOutput,
    result: { text: (numbered || "(empty file)") + note, isError: false },
    ...(seen.length ? { seen } : {}),
  };
}
