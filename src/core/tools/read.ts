import { readFile } from "node:fs/promises";
import { z } from "zod";
import { confine, PathError } from "./paths.ts";
import { failed, type Tool } from "./tool.ts";

const input = z.object({
  file_path: z.string().describe("The absolute path of the file to read"),
  offset: z.number().int().positive().optional().describe("The line number to start reading from (1-based)"),
  limit: z.number().int().positive().optional().describe("The number of lines to read"),
});
type Input = z.infer<typeof input>;

const MAX_LINES = 2000;
const MAX_LINE_CHARS = 2000;

/** Reads a text file, through the client's editor buffers when it offers `fs/read_text_file`. */
export const readTool: Tool<Input> = {
  name: "Read",
  description:
    "Reads a file from the local filesystem. file_path must be absolute. By default reads up to 2000 lines from the start; " +
    "use offset and limit for long files. Lines are returned numbered from 1.",
  input,
  kind: "read",
  readOnly: true,
  title: (i) => `Read ${i.file_path}${i.offset || i.limit ? ` (lines ${i.offset ?? 1}-${i.limit ? (i.offset ?? 1) + i.limit - 1 : "end"})` : ""}`,
  locations: (i) => [{ path: i.file_path, line: i.offset ?? 1 }],
  async run(i, ctx) {
    let path: string;
    try {
      path = confine(i.file_path, ctx.roots);
    } catch (error) {
      if (error instanceof PathError) return failed(error.message);
      throw error;
    }
    let text: string;
    try {
      text = ctx.host.readTextFile
        ? await ctx.host.readTextFile(path, { ...(i.offset ? { line: i.offset } : {}), ...(i.limit ? { limit: i.limit } : {}) })
        : await readFile(path, "utf8");
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return failed(`File does not exist: ${path}`);
      if (code === "EISDIR") return failed(`${path} is a directory, not a file. Use a file path.`);
      return failed(`Could not read ${path}: ${error instanceof Error ? error.message : String(error)}`);
    }
    const all = text.split("\n");
    if (all.length > 1 && all[all.length - 1] === "") all.pop();
    // The client already applied line/limit; a local read applies them here.
    const start = ctx.host.readTextFile ? 0 : (i.offset ?? 1) - 1;
    const wanted = Math.min(i.limit ?? MAX_LINES, MAX_LINES);
    const lines = all.slice(start, start + wanted);
    const firstLine = ctx.host.readTextFile ? (i.offset ?? 1) : start + 1;
    const truncated = all.length - start > lines.length;
    const numbered = lines
      .map((line, n) => `${String(firstLine + n).padStart(6)}\t${line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line}`)
      .join("\n");
    const note = truncated ? `\n(Showing lines ${firstLine}-${firstLine + lines.length - 1}; use offset and limit to read more.)` : "";
    return {
      status: "completed",
      content: [{ type: "content", content: { type: "text", text: "```\n" + lines.join("\n") + "\n```" } }],
      rawOutput: { lines: lines.length, truncated },
      result: { text: (numbered || "(empty file)") + note, isError: false },
    };
  },
};
