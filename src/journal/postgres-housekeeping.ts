/**
 * What `verbatim doctor`, `sessions` and `prune` ask of a PostgreSQL journal: how much room it
 * and each session take, and which sessions have been idle since a time. Deleting is the store's
 * one delete path (postgres-store.ts); the room deleted rows leave is the server's autovacuum's.
 */
import type { SQL } from "bun";
import { pgReplayCacheBytes } from "./postgres-replay-cache.ts";
import { toSessionRow, type SessionDbRow } from "./session-rows.ts";
import type { SessionRow, UnendedJob } from "./store.ts";
import { unendedJob, unendedJobsSql, type UnendedJobRow } from "./unended-jobs.ts";

/** The journal's tables in the `verbatim` schema, with their indexes and out-of-line storage. */
export async function pgJournalBytes(sql: SQL): Promise<number> {
  const [row] = (await sql`
    SELECT COALESCE(SUM(pg_total_relation_size(c.oid)), 0)::float8 AS n
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'verbatim' AND c.relkind = 'r'`) as { n: number }[];
  return Number(row?.n ?? 0);
}

/** A session's own stored bytes: its facts' bodies, its blobs, its replay cache rows and state. */
export async function pgSessionBytes(sql: SQL, sessionId: string): Promise<number> {
  const [row] = (await sql`
    SELECT
      COALESCE((SELECT SUM(octet_length(body)) FROM verbatim.facts WHERE session_id = ${sessionId}), 0)
      + COALESCE((SELECT SUM(octet_length(data)) FROM verbatim.blobs WHERE session_id = ${sessionId}), 0)
      AS n`) as { n: number | string }[];
  return Number(row?.n ?? 0) + (await pgReplayCacheBytes(sql, sessionId));
}

/** Top-level sessions whose last record is older than `before` (ISO times compare as text), oldest first. */
export async function pgIdleSessions(sql: SQL, before: string): Promise<SessionRow[]> {
  const rows = (await sql`
    SELECT * FROM verbatim.sessions WHERE parent_session_id IS NULL AND updated_at < ${before}
    ORDER BY updated_at, session_id`) as SessionDbRow[];
  return rows.map(toSessionRow);
}

/** Jobs started and not ended, across the journal (unended-jobs.ts). */
export async function pgUnendedJobs(sql: SQL): Promise<UnendedJob[]> {
  const text = unendedJobsSql("verbatim.facts", (body) => `(${body}::jsonb ->> 'jobId')`);
  return ((await sql.unsafe(text)) as UnendedJobRow[]).map(unendedJob);
}
