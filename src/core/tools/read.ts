import { z } from "zod";
import { FileProblem, readText, sha256 } from "./files/text-files.ts";
import { confine, PathError } from "./paths.ts";
import { failed, fenced, textContent, type Tool } from "./tool.ts";

const input = z.lazy(() =>
  z.object({
    file_path: z.string().describe("The absolute path of the file to read"),
    offset: z.number().int().positive().optional().describe("The line number to start reading from (1-based)"),
    limit: z.number().int().positive().optional().describe("The number of lines to read"),
  }),
);
type Input = z.infer<typeof input>;

export const READ_MAX_LINES = 2000;
const MAX_LINE_CHARS = 2000;
/** The most text one read returns to the model; past it the read stops with a note. */
export const READ_MAX_CHARS = 100_000;

/**
 * Reads a text file, through the client's editor buffers when it offers `fs/read_text_file`.
 * The whole file is read (so its hash records what the model saw); the lines asked for are shown.
 */
export const readTool: Tool<Input> = {
  name: "Read",
  description:
    "Reads a file from the local filesystem. file_path must be absolute. By default reads up to 2000 lines from the start; " +
    "use offset and limit for long files. Lines are returned numbered from 1, each cut at 2000 characters.",
  input,
  kind: "read",
  access: "read",
  title: (i) => `Read ${i.file_path}${i.offset || i.limit ? ` (lines ${i.offset ?? 1}-${i.limit ? (i.offset ?? 1) + i.limit - 1 : "end"})` : ""}`,
  locations: (i) => [{ path: i.file_path, line: i.offset ?? 1 }],
  async run(i, ctx) {
    let path: string;
    let text: string;
    try {
      path = confine(i.file_path, ctx.roots);
      text = await readText(ctx.host, path);
    } catch (error) {
      if (error instanceof PathError || error instanceof FileProblem) return failed(error.message);
      throw error;
    }
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
      const shown = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}… (line cut at ${MAX_LINE_CHARS} characters)` : line;
      if (chars + shown.length > READ_MAX_CHARS && lines.length > 0) break;
      lines.push(shown);
      chars += shown.length + 1;
    }
    const first = start + 1;
    const last = start + lines.length;
    const truncated = last < all.length && (i.limit === undefined || lines.length < i.limit);
    const numbered = lines.map((line, n) => `${String(first + n).padStart(6)}\t${line}`).join("\n");
    const note = truncated
      ? `\n(Showing lines ${first}-${last} of ${all.length}; use offset and limit to read more.)`
      : "";
    return {
      status: "completed",
      content: [textContent(fenced(lines.join("\n")) + note)],
      rawOutput: { lines: lines.length, totalLines: all.length, truncated },
      result: { text: (numbered || "(empty file)") + note, isError: false },
      seen: [{ path, sha256: sha256(text) }],
    };
  },
};
