/**
 * Every background job this process runs, so that none outlives it: when the process exits by any
 * path that runs exit handlers (its sessions closed or not), each local job's tree gets SIGKILL. A
 * `kill -9` of the agent runs nothing: the next load of the session kills the group it recorded
 * (orphan-jobs.ts).
 */
import type { JobRunner } from "../tools/shell/job-runner.ts";

/** Each running job, with the id its `job_started` recorded. */
const jobs = new Map<JobRunner, string>();
let hooked = false;

export const liveJobs = {
  add(job: JobRunner, jobId: string): void {
    jobs.set(job, jobId);
    if (hooked) return;
    hooked = true;
    process.once("exit", () => {
      for (const j of jobs.keys()) j.killNow();
    });
  },
  delete(job: JobRunner): void {
    jobs.delete(job);
  },
  /** Whether this process runs the job (its session is open here, locally or in a client's terminal). */
  runs(jobId: string): boolean {
    for (const id of jobs.values()) if (id === jobId) return true;
    return false;
  },
};
