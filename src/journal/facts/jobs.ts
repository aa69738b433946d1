/**
 * Background commands (jobs): a command the model started with `run_in_background`, or a
 * foreground command moved to the background at its timeout. Its output is recorded as it
 * arrives, so a reopened session shows what the job printed and when; what the model read of it
 * is the result of its `Read` calls, recorded as every call's is.
 */
import { z } from "zod";
import { lazySchema } from "../../shared/lazy-schema.ts";
import { contentBlock } from "./display-shapes.ts";

/**
 * A job began running in the background, on the card of the `Bash` call that started it. A local
 * job's process (`host`, `pid`: the leader of its process group, `startTime`: the leader's start
 * time) identifies the group to kill after the agent died, never a reused pid. A job in the
 * client's terminal (`terminal/*`) names that terminal instead (`terminalId`, no pid): its process
 * is the client's, which the agent can reach only through the connection that made it.
 */
export const jobStarted = lazySchema(() =>
  z.object({
    kind: z.literal("job_started"),
    jobId: z.string(),
    toolCallId: z.string(),
    command: z.string(),
    /** The file the job's output goes to, which the model reads with `Read`. */
    outputPath: z.string(),
    host: z.string(),
    pid: z.number().int().optional(),
    startTime: z.string().optional(),
    terminalId: z.string().optional(),
    /** Set when a foreground command was moved here at its timeout (in ms). */
    movedAtTimeoutMs: z.number().int().optional(),
  }),
);

/**
 * Output the job printed since its last record, as an embedded text resource (the output file's
 * URI), so that long output is stored once in the blob store. `dropped`: characters past the
 * job's or the session's bound, written to the output file but not recorded.
 */
export const jobOutput = lazySchema(() =>
  z.object({
    kind: z.literal("job_output"),
    jobId: z.string(),
    toolCallId: z.string(),
    output: contentBlock,
    dropped: z.number().int().optional(),
  }),
);

/** Why a job ended: it exited, the model stopped it, its session ended, or the agent died (found at the next load). */
export const jobEndedBy = z.enum(["exit", "model", "session", "timeout", "interrupted"]);
export type JobEndedBy = z.infer<typeof jobEndedBy>;

export const jobEnded = lazySchema(() =>
  z.object({
    kind: z.literal("job_ended"),
    jobId: z.string(),
    toolCallId: z.string(),
    by: jobEndedBy,
    exitCode: z.number().int().nullable().optional(),
    signal: z.string().nullable().optional(),
    /** Everything the job printed, recorded or not. */
    outputChars: z.number().int().optional(),
  }),
);

export const jobFacts = [jobStarted, jobOutput, jobEnded] as const;
