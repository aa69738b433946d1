/**
 * What a background job runs on, as the session's jobs (src/core/jobs/session-jobs.ts) drive it:
 * a local process group (job-process.ts) or a command in the client's terminal (terminal-job.ts).
 */

/** How a job's command ended. */
export type JobEnd = { exitCode: number | null; signal: string | null };

/** Where a job runs, as its `job_started` records it: a local group's leader, or the client's terminal. */
export type JobPlace = { pid: number; startTime: string } | { terminalId: string };

export interface JobRunner {
  readonly place: JobPlace;
  /** Where output goes now (replaced when the command moves to the background). */
  sink: (chunk: string) => void;
  /** Resolves when the command has exited and its output has been handed to `sink`. */
  readonly ended: Promise<JobEnd>;
  readonly running: boolean;
  /** Stops the command with everything it started; resolves once it has exited. */
  stop(graceMs?: number): Promise<void>;
  /** Synchronous last resort at the agent's exit. */
  killNow(): void;
}
