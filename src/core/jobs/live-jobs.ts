/**
 * Every background job this process runs, so that none outlives it: when the process exits by any
 * path that runs exit handlers (its sessions closed or not), each job's tree gets SIGKILL. A
 * `kill -9` of the agent runs nothing: the next load of the session kills the group it recorded
 * (orphan-jobs.ts).
 */
import type { JobProcess } from "../tools/shell/job-process.ts";

const jobs = new Set<JobProcess>();
let hooked = false;

export const liveJobs = {
  add(job: JobProcess): void {
    jobs.add(job);
    if (hooked) return;
    hooked = true;
    process.once("exit", () => {
      for (const j of jobs) j.killNow();
    });
  },
  delete(job: JobProcess): void {
    jobs.delete(job);
  },
  /** Whether this process runs the job whose leader is `pid`, started at `startTime` (its session is open here). */
  runs(pid: number, startTime: string): boolean {
    for (const job of jobs) if (job.pid === pid && job.startTime === startTime) return true;
    return false;
  },
};
