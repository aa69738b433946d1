/**
 * `verbatim doctor`'s background-job check: jobs the journal has started and not ended, in
 * sessions no live process holds, whose process group still runs on this machine as recorded
 * (host, pid and start time: a reused pid is never reported). A load of the session kills them.
 * The same on SQLite and on PostgreSQL (where jobs of other machines are theirs to report).
 */
import { jobStillRuns } from "../core/jobs/orphan-jobs.ts";
import type { FactStore, LeaseStore } from "../journal/store.ts";

export type OrphanJob = { sessionId: string; jobId: string; pid: number; command: string };

/** Jobs still running that no live process answers for (never writes). */
export async function orphanJobs(store: Pick<FactStore & LeaseStore, "unendedJobs" | "holder">): Promise<OrphanJob[]> {
  const found: OrphanJob[] = [];
  for (const { sessionId, started } of await store.unendedJobs()) {
    if (started.pid === undefined || !jobStillRuns(started)) continue;
    if (await store.holder(sessionId)) continue;
    found.push({ sessionId, jobId: started.jobId, pid: started.pid, command: started.command });
  }
  return found;
}
