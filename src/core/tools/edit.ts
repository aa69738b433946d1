import type { ToolCallContent } from "@agentclientprotocol/sdk";
import { z } from "zod";
import { FileProblem, readText, sha256, staleness, writeText } from "./files/text-files.ts";
import { confine, PathError } from "./paths.ts";
import { failed, type Prepared, type Tool, type ToolContext } from "./tool.ts";

const input = z.lazy(() =>
  z.object({
    file_path: z.string().describe("The absolute path of the file to change"),
    old_string: z.string().describe("The exact text to replace"),
    new_string: z.string().describe("The text to replace it with (must differ from old_string)"),
    replace_all: z.boolean().optional().describe("Replace every occurrence of old_string (default false)"),
  }),
);
type Input = z.infer<typeof input>;

type Applied = { ok: true; text: string; count: number; at: number } | { ok: false; message: string };

/** The file's new text, or why the edit cannot be made (in words the model can act on). */
function applyEdit(path: string, current: string, i: Input): Applied {
  if (i.old_string === "")
    return { ok: false, message: "old_string is empty. Give the exact text to replace (use Write to create a file)." };
  if (i.old_string === i.new_string)
    return { ok: false, message: "old_string and new_string are the same, so there is nothing to change." };
  const at = current.indexOf(i.old_string);
  if (at < 0) {
    return {
      ok: false,
      message: `old_string was not found in ${path}. Read the file again and copy the exact text, including whitespace and indentation.`,
    };
  }
  const count = current.split(i.old_string).length - 1;
  if (count > 1 && !i.replace_all) {
    return {
      ok: false,
      message: `old_string occurs ${count} times in ${path}. Include more surrounding lines to make it unique, or set replace_all to true to change every occurrence.`,
    };
  }
  const text = i.replace_all
    ? current.split(i.old_string).join(i.new_string)
    : current.slice(0, at) + i.new_string + current.slice(at + i.old_string.length);
  return { ok: true, text, count: i.replace_all ? count : 1, at };
}

const diff = (path: string, oldText: string, newText: string): ToolCallContent => ({
  type: "diff",
  path,
  oldText,
  newText,
});

/** A few numbered lines around a position, so the model sees the result of its edit. */
function snippet(text: string, at: number, span: number): string {
  const lines = text.split("\n");
  const line = text.slice(0, at).split("\n").length - 1;
  const last = line + text.slice(at, at + span).split("\n").length - 1;
  const from = Math.max(0, line - 3);
  const to = Math.min(lines.length, last + 4);
  return lines
    .slice(from, to)
    .map((l, n) => `${String(from + n + 1).padStart(6)}\t${l}`)
    .join("\n");
}

/**
 * The diff an edit will write, from the file as it is now; a problem when the edit cannot be made
 * (old_string absent or ambiguous, the file missing, unread or changed since it was read). A path
 * outside the roots is no problem here: the permission gate asks about it, and the run confines it.
 */
async function prepareEdit(i: Input, ctx: Pick<ToolContext, "roots" | "host" | "seenFiles">): Promise<Prepared> {
  let path: string;
  try {
    path = confine(i.file_path, ctx.roots);
  } catch (error) {
    if (error instanceof PathError) return { content: [] };
    throw error;
  }
  let current: string;
  try {
    current = await readText(ctx.host, path, ctx.roots);
  } catch (error) {
    if (error instanceof PathError) return { content: [] };
    if (error instanceof FileProblem) return { content: [], problem: error.message };
    throw error;
  }
  // Staleness first, as the run checks it: an old_string missing from a file that changed is explained by the change.
  const stale = staleness(path, current, ctx.seenFiles);
  if (stale) return { content: [], problem: stale };
  const applied = applyEdit(path, current, i);
  return applied.ok ? { content: [diff(path, current, applied.text)] } : { content: [], problem: applied.message };
}

/** Replaces exact text in a file the model has read, refusing if the file changed since. */
export const editTool: Tool<Input> = {
  name: "Edit",
  description:
    "Replaces exact text in a file. file_path must be absolute, and the file must have been read with Read in this session " +
    "(an edit to a file that changed since it was read is refused: read it again). old_string must match exactly and be unique " +
    "unless replace_all is true.",
  input,
  kind: "edit",
  access: "edit",
  title: (i) => `Edit ${i.file_path}`,
  locations: (i) => [{ path: i.file_path }],
  async preview(i, ctx) {
    // A rewritten input's diff (hooks): shown whatever the model has read.
    const path = confine(i.file_path, ctx.roots);
    const current = await readText(ctx.host, path, ctx.roots);
    const applied = applyEdit(path, current, i);
    return applied.ok ? [diff(path, current, applied.text)] : [];
  },
  prepare: prepareEdit,
  async run(i, ctx) {
    try {
      const path = confine(i.file_path, ctx.roots);
      const current = await readText(ctx.host, path, ctx.roots);
      const stale = staleness(path, current, ctx.seenFiles);
      if (stale) return failed(stale);
      const applied = applyEdit(path, current, i);
      if (!applied.ok) return failed(applied.message);
      await writeText(ctx.host, path, applied.text, ctx.roots);
      const times = applied.count === 1 ? "1 occurrence" : `${applied.count} occurrences`;
      return {
        status: "completed",
        content: [diff(path, current, applied.text)],
        rawOutput: { replacements: applied.count },
        result: {
          text: `Edited ${path}: replaced ${times}. The file now reads, around the change:\n${snippet(applied.text, applied.at, i.new_string.length)}`,
          isError: false,
        },
        seen: [{ path, sha256: sha256(applied.text) }],
      };
    } catch (error) {
      if (error instanceof PathError || error instanceof FileProblem) return failed(error.message);
      throw error;
    }
  },
};
