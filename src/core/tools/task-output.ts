/**
 * A background job's output not read before (Claude Code's `TaskOutput`, deprecated for `Read` on
 * the output file, and its older name `BashOutput`, which takes `bash_id`). Not offered to the
 * model: accepted when a model trained on them calls them. What it returned is the call's
 * recorded result, as every call's is.
 */
import { z } from "zod";
import { failed, fenced, textContent, type Tool } from "./tool.ts";

const DEFAULT_WAIT_MS = 30_000;
const MAX_WAIT_MS = 600_000;
/** The most output one call returns; the rest stays for the next. */
const MAX_CHARS = 30_000;

const input = z.lazy(() =>
  z
    .object({
      task_id: z.string().optional().describe("The id of the background job"),
      bash_id: z.string().optional().describe("Deprecated: use task_id"),
      block: z.boolean().optional().describe("Wait for the job to end (default true)"),
      timeout: z.number().int().nonnegative().optional().describe("How long to wait, in milliseconds"),
      filter: z.string().optional().describe("Keep only the lines matching this regular expression"),
    })
    .refine((i) => i.task_id !== undefined || i.bash_id !== undefined, { message: "task_id is required" }),
);
type Input = z.infer<typeof input>;

const jobIdOf = (i: Input) => i.task_id ?? i.bash_id ?? "";

export const taskOutputTool: Tool<Input> = {
  name: "TaskOutput",
  description: "Returns a background job's output not read before. Prefer Read on the job's output file.",
  input,
  kind: "read",
  access: "read",
  title: (i) => `Output of background job ${jobIdOf(i)}`,
  locations: () => [],
  async run(i, ctx) {
    const id = jobIdOf(i);
    let pattern: RegExp | undefined;
    try {
      pattern = i.filter ? new RegExp(i.filter) : undefined;
    } catch (error) {
      return failed(
        `The filter is not a regular expression: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    // BashOutput never waited; TaskOutput waits by default.
    const wait = (i.block ?? i.bash_id === undefined) ? Math.min(i.timeout ?? DEFAULT_WAIT_MS, MAX_WAIT_MS) : 0;
    const read = await ctx.jobs?.read(id, wait, MAX_CHARS);
    if (!read) return failed(`No background job with id ${id} in this session.`);
    const text = pattern
      ? read.text
          .split("\n")
          .filter((l) => pattern.test(l))
          .join("\n")
      : read.text;
    const status = read.ended ? `The job ${read.ended}.` : "The job is still running.";
    const more = read.more ? ` ${read.more} more characters wait for the next read.` : "";
    return {
      status: "completed",
      content: [textContent(`${text ? fenced(text) : "(no new output)"}\n${status}${more}`)],
      result: { text: `${text || "(no new output)"}\n${status}${more}`, isError: false },
    };
  },
};

export const TASK_OUTPUT_ALIASES = ["BashOutput"];
