import type { ToolCallContent } from "@agentclientprotocol/sdk";
import { z } from "zod";
import { fileExists, FileProblem, readText, sha256, staleness, writeText } from "./files/text-files.ts";
import { confine, PathError } from "./paths.ts";
import { failed, type Tool, type ToolContext } from "./tool.ts";

const input = z.lazy(() =>
  z.object({
    file_path: z.string().describe("The absolute path of the file to write (it is created or overwritten)"),
    content: z.string().describe("The whole content of the file"),
  }),
);
type Input = z.infer<typeof input>;

const diff = (path: string, oldText: string | null, newText: string): ToolCallContent => ({
  type: "diff",
  path,
  oldText,
  newText,
});

const lineCount = (text: string) => (text === "" ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0));

/** The file as it is (null when it does not exist) and the diff writing it would show. */
async function writePlan(
  i: Input,
  ctx: Pick<ToolContext, "roots" | "host">,
): Promise<{ path: string; old: string | null; content: ToolCallContent[] }> {
  const path = confine(i.file_path, ctx.roots);
  const old = fileExists(path) ? await readText(ctx.host, path, ctx.roots) : null;
  return { path, old, content: [diff(path, old, i.content)] };
}

/** Creates a file or replaces its whole content. An existing file must have been read first. */
export const writeTool: Tool<Input> = {
  name: "Write",
  description:
    "Writes a file to the local filesystem, creating it (and its directories) or overwriting it. file_path must be absolute. " +
    "An existing file must have been read with Read first, and is refused if it changed since; prefer Edit for changes to existing files.",
  input,
  kind: "edit",
  access: "edit",
  title: (i) => `Write ${i.file_path}`,
  locations: (i) => [{ path: i.file_path }],
  preview: async (i, ctx) => (await writePlan(i, ctx)).content,
  // An existing file the model has not read as it is now cannot be overwritten: no question is asked.
  async prepare(i, ctx) {
    const plan = await writePlan(i, ctx).catch(() => undefined);
    if (!plan) return { content: [] };
    const stale = plan.old === null ? undefined : staleness(plan.path, plan.old, ctx.seenFiles);
    return stale ? { content: [], problem: stale } : { content: plan.content };
  },
  async run(i, ctx) {
    try {
      const path = confine(i.file_path, ctx.roots);
      const existed = fileExists(path);
      const old = existed ? await readText(ctx.host, path, ctx.roots) : null;
      if (old !== null) {
        const stale = staleness(path, old, ctx.seenFiles);
        if (stale) return failed(stale);
      }
      await writeText(ctx.host, path, i.content, ctx.roots);
      const lines = lineCount(i.content);
      return {
        status: "completed",
        content: [diff(path, old, i.content)],
        rawOutput: { created: !existed, lines },
        result: {
          text: `${existed ? "Overwrote" : "Created"} ${path} (${lines} line${lines === 1 ? "" : "s"}).`,
          isError: false,
        },
        seen: [{ path, sha256: sha256(i.content) }],
      };
    } catch (error) {
      if (error instanceof PathError || error instanceof FileProblem) return failed(error.message);
      throw error;
    }
  },
};
