/**
 * `verbatim doctor`'s background-job check: jobs the journal has started and not ended, in
 * sessions no live process holds, whose process group still runs on this machine as recorded
 * (host, pid and start time: a reused pid is never reported). A load of the session kills them.
 */
import type { Database } from "bun:sqlite";
import { jobStillRuns } from "../core/jobs/orphan-jobs.ts";
import type { FactStore, LeaseStore } from "../journal/store.ts";

export type OrphanJob = { sessionId: string; jobId: string; pid: number; command: string };

type Row = { session_id: string; body: string };

/** Jobs still running that no live process answers for (SQLite journal, read-only). */
export async function orphanJobs(db: Database, store: FactStore & LeaseStore): Promise<OrphanJob[]> {
  const rows = db
    .query<Row, []>(
      `SELECT s.session_id, s.body FROM facts s WHERE s.kind = 'job_started' AND NOT EXISTS (
         SELECT 1 FROM facts e WHERE e.session_id = s.session_id AND e.kind = 'job_ended'
           AND json_extract(e.body, '$.jobId') = json_extract(s.body, '$.jobId'))`,
    )
    .all();
  const found: OrphanJob[] = [];
  for (const row of rows) {
    const job = JSON.parse(row.body) as {
      jobId: string;
      host: string;
      pid: number;
      startTime: string;
      command: string;
    };
    if (!jobStillRuns(job)) continue;
    if (await store.holder(row.session_id)) continue;
    found.push({ sessionId: row.session_id, jobId: job.jobId, pid: job.pid, command: job.command });
  }
  return found;
}
