/**
 * Stopping a background job (Claude Code's `TaskStop`, and its older names `KillShell` and
 * `KillBash`, which take `shell_id`): the job's whole process group is killed, and its card says so.
 */
import { z } from "zod";
import { failed, textContent, type Tool } from "./tool.ts";

const input = z.lazy(() =>
  z
    .object({
      task_id: z.string().optional().describe("The id of the background job to stop"),
      shell_id: z.string().optional().describe("Deprecated: use task_id"),
    })
    .refine((i) => i.task_id !== undefined || i.shell_id !== undefined, { message: "task_id is required" }),
);
type Input = z.infer<typeof input>;

const jobIdOf = (i: Input) => i.task_id ?? i.shell_id ?? "";

export const taskStopTool: Tool<Input> = {
  name: "TaskStop",
  description:
    "Stops a background job (a command started with run_in_background, or moved to the background at its timeout) " +
    "and every process it started. task_id is the job id the Bash result named.",
  input,
  kind: "execute",
  access: "read",
  title: (i) => `Stop background job ${jobIdOf(i)}`,
  locations: () => [],
  async run(i, ctx) {
    const id = jobIdOf(i);
    const said = await ctx.jobs?.stop(id);
    if (said === undefined) return failed(`No background job with id ${id} in this session.`);
    return { status: "completed", content: [textContent(said)], result: { text: said, isError: false } };
  },
};

/** The names Claude Code gave TaskStop before, accepted so that hooks written for them match. */
export const TASK_STOP_ALIASES = ["KillShell", "KillBash"];
