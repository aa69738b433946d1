/**
 * What `verbatim doctor`, `sessions` and `prune` ask of an SQLite journal: how much room it and
 * each session take, which sessions have been idle since a time, and giving deleted sessions'
 * room back to the file system. Deleting itself is the store's one delete path (sqlite-store.ts).
 */
import type { Database } from "bun:sqlite";
import { statSync } from "node:fs";
import { guard } from "./sqlite-errors.ts";
import { sizes } from "./sqlite-replay-cache.ts";
import { toSessionRow, type SessionDbRow } from "./session-rows.ts";
import type { SessionRow, UnendedJob } from "./store.ts";
import { unendedJob, unendedJobsSql, type UnendedJobRow } from "./unended-jobs.ts";

/** The journal's files on disk: the database and its write-ahead log (0 before the first session). */
export function sqliteJournalBytes(path: string): number {
  let bytes = 0;
  for (const file of [path, `${path}-wal`]) bytes += statSync(file, { throwIfNoEntry: false })?.size ?? 0;
  return bytes;
}

/** A session's own stored bytes: its facts' bodies, its blobs, its replay cache rows and state. */
export function sqliteSessionBytes(db: Database | undefined, sessionId: string): number {
  if (!db) return 0;
  return guard(sessionId, () => {
    const { cacheBytes, factBytes } = sizes(db, sessionId);
    const blobs = db
      .query<{ n: number | null }, [string]>(
        "SELECT SUM(LENGTH(CAST(data AS BLOB))) AS n FROM blobs WHERE session_id = ?",
      )
      .get(sessionId);
    return cacheBytes + factBytes + (blobs?.n ?? 0);
  });
}

/** Top-level sessions whose last record is older than `before` (ISO times compare as text), oldest first. */
export function idleSessions(db: Database | undefined, before: string): SessionRow[] {
  if (!db) return [];
  return guard(undefined, () =>
    db
      .query<SessionDbRow, [string]>(
        "SELECT * FROM sessions WHERE parent_session_id IS NULL AND updated_at < ? ORDER BY updated_at, session_id",
      )
      .all(before),
  ).map(toSessionRow);
}

/** Jobs started and not ended, across the journal (unended-jobs.ts). */
export function sqliteUnendedJobs(db: Database | undefined): UnendedJob[] {
  if (!db) return [];
  const text = unendedJobsSql("facts", (body) => `json_extract(${body}, '$.jobId')`);
  return guard(undefined, () => db.query<UnendedJobRow, []>(text).all()).map(unendedJob);
}

/**
 * Rewrites the database without the pages deleted sessions left free (VACUUM), then folds the
 * write-ahead log, which then holds the whole new database, back into it and empties it.
 */
export function vacuum(db: Database): void {
  guard(undefined, () => {
    db.run("VACUUM");
    db.run("PRAGMA wal_checkpoint(TRUNCATE)");
  });
}
