/**
 * The jobs a journal holds started and not ended (`verbatim doctor`'s background-job check), read
 * the same way from SQLite and PostgreSQL: a `job_started` record with no `job_ended` of its job
 * in its session, and no fork or import recorded after it (a session that began with another's
 * history owns none of its jobs).
 */
import { decodeRecord } from "./codec.ts";
import type { FactOf } from "./facts/index.ts";
import type { UnendedJob } from "./store.ts";

/** The query over the table `facts`, `jobIdOf` saying how a record's text `body` gives its `jobId`. */
export const unendedJobsSql = (facts: string, jobIdOf: (body: string) => string): string =>
  `SELECT s.session_id, s.seq, s.kind, s.v, s.at, s.body FROM ${facts} s WHERE s.kind = 'job_started' AND NOT EXISTS (
     SELECT 1 FROM ${facts} e WHERE e.session_id = s.session_id AND (
       (e.kind = 'job_ended' AND ${jobIdOf("e.body")} = ${jobIdOf("s.body")})
       OR (e.kind IN ('session_forked', 'session_imported') AND e.seq > s.seq)))
   ORDER BY s.session_id, s.seq`;

export type UnendedJobRow = { session_id: string; seq: number; kind: string; v: number; at: string; body: string };

export function unendedJob(row: UnendedJobRow): UnendedJob {
  const { fact } = decodeRecord(row.session_id, row);
  return { sessionId: row.session_id, started: fact as FactOf<"job_started"> };
}
