/**
 * Reading the SQLite journal: a session's records, its row, the listing, and the counts and
 * children the CLI shows. Each takes the reader's database (undefined where no journal exists
 * yet) and never writes.
 */
import type { Database, Statement } from "bun:sqlite";
import { decodeRecord, nextInSequence } from "./codec.ts";
import { sessionNotFound } from "./errors.ts";
import { AUTHORITY_KINDS } from "./facts/authority.ts";
import { AUTHORITY_SPARSE_INDEX, sparseIndexFor } from "./facts/sparse-indexes.ts";
import type { FactKind, StoredFact } from "./facts/index.ts";
import { toSessionRow, type SessionDbRow } from "./session-rows.ts";
import { guard, guardIter } from "./sqlite-errors.ts";
import type { ListQuery, SeqRange, SessionRow } from "./store.ts";

export type Row = { seq: number; kind: string; v: number; at: string; body: string };

/** A session's records from `fromSeq` on, one at a time, synchronously (SQLite reads in this thread). */
export function* readFacts(db: Database | undefined, sessionId: string, fromSeq = 1): Generator<StoredFact> {
  if (!db) throw sessionNotFound(sessionId);
  // A statement of its own (not the query cache): a replay may wait for its client part of the
  // way, while another read of the same query runs; a shared statement would be reset under it.
  const statement = guard(sessionId, () =>
    db.prepare<Row, [string, number]>(
      "SELECT seq, kind, v, at, body FROM facts WHERE session_id = ? AND seq >= ? ORDER BY seq",
    ),
  );
  const rows = guard(sessionId, () => statement.iterate(sessionId, fromSeq));
  let expected = fromSeq;
  let blobQuery: Statement<{ data: string }, [string, string]> | undefined;
  const blob = (hash: string) => {
    blobQuery ??= db.query<{ data: string }, [string, string]>(
      "SELECT data FROM blobs WHERE session_id = ? AND sha256 = ?",
    );
    return blobQuery.get(sessionId, hash)?.data;
  };
  try {
    for (const row of guardIter(sessionId, rows)) {
      expected = nextInSequence(sessionId, expected, row.seq);
      yield decodeRecord(sessionId, row, (hash) => guard(sessionId, () => blob(hash)));
    }
  } finally {
    statement.finalize();
  }
  if (expected === 1 && fromSeq === 1) throw sessionNotFound(sessionId);
}

export function sessionInfo(db: Database | undefined, sessionId: string): SessionRow | undefined {
  if (!db) return undefined;
  const row = guard(sessionId, () =>
    db.query<SessionDbRow, [string]>("SELECT * FROM sessions WHERE session_id = ?").get(sessionId),
  );
  return row ? toSessionRow(row) : undefined;
}

export function listSessions(db: Database | undefined, query: ListQuery): SessionRow[] {
  if (!db) return [];
  const asOf = query.asOf ?? new Date().toISOString();
  const limit = Math.max(1, Math.floor(query.limit));
  const where: string[] = [
    "s.parent_session_id IS NULL",
    "s.created_at <= :asOf",
    "EXISTS (SELECT 1 FROM facts p WHERE p.session_id = s.session_id AND p.kind = 'prompt_received' AND p.at <= :asOf)",
  ];
  const args: Record<string, string> = { asOf };
  if (query.cwd !== undefined) {
    where.push("s.cwd = :cwd");
    args.cwd = query.cwd;
  }
  if (query.exceptCwd !== undefined) {
    where.push("s.cwd <> :exceptCwd");
    args.exceptCwd = query.exceptCwd;
  }
  if (query.repository !== undefined) {
    // The session's first record says where it started (sessions recorded before that say nothing, and match nothing).
    where.push(`EXISTS (SELECT 1 FROM facts o WHERE o.session_id = s.session_id AND o.seq = 1
      AND json_extract(o.body, '$.origin.git.remote') = :remote AND json_extract(o.body, '$.origin.git.innerPath') = :innerPath)`);
    Object.assign(args, { remote: query.repository.remote, innerPath: query.repository.innerPath });
  }
  const after = query.after ? "AND (activity < :afterAt OR (activity = :afterAt AND session_id < :afterId))" : "";
  if (query.after) Object.assign(args, { afterAt: query.after.updatedAt, afterId: query.after.sessionId });
  type ListedRow = SessionDbRow & { activity: string };
  // Sessions untouched since `asOf` (nearly all) are found in the index of last updates; the
  // few written since are placed by their last record before then, so that a session's
  // place does not move between the pages of one listing.
  const untouched = `SELECT * FROM (SELECT s.*, s.updated_at AS activity FROM sessions s WHERE ${where.join(" AND ")} AND s.updated_at <= :asOf)
    WHERE 1 ${after} ORDER BY activity DESC, session_id DESC LIMIT ${limit}`;
  const touched = `SELECT * FROM (
    SELECT s.*, (SELECT MAX(f.at) FROM facts f WHERE f.session_id = s.session_id AND f.at <= :asOf) AS activity
    FROM sessions s WHERE ${where.join(" AND ")} AND s.updated_at > :asOf
  ) WHERE activity IS NOT NULL ${after} ORDER BY activity DESC, session_id DESC LIMIT ${limit}`;
  const rows = guard(undefined, () => [
    ...db.query<ListedRow, [Record<string, string>]>(untouched).all(args),
    ...db.query<ListedRow, [Record<string, string>]>(touched).all(args),
  ]);
  rows.sort((x, y) =>
    x.activity === y.activity ? (x.session_id < y.session_id ? 1 : -1) : x.activity < y.activity ? 1 : -1,
  );
  return rows.slice(0, limit).map((row) => ({ ...toSessionRow(row), updatedAt: row.activity }));
}

export function lastFactOf(
  db: Database | undefined,
  sessionId: string,
  kinds: readonly FactKind[],
): StoredFact | undefined {
  if (!db || kinds.length === 0) return undefined;
  const row = guard(sessionId, () => db.query<Row, string[]>(lastOfSql(db, kinds)).get(sessionId, ...kinds));
  return row ? decodeRecord(sessionId, row, blobOf(db, sessionId)) : undefined;
}

/** The query for a session's last record of `kinds` (the session id, then the kinds, as its parameters). */
export function lastOfSql(db: Database, kinds: readonly FactKind[]): string {
  const { from, where } = sparseSource(db, kinds);
  return `SELECT seq, kind, v, at, body FROM ${from} WHERE session_id = ? AND ${where}kind IN (${kinds.map(() => "?").join(", ")}) ORDER BY seq DESC LIMIT 1`;
}

/**
 * The session's authority records (facts/authority.ts) up to `upToSeq`, in order, through their
 * index (the query's predicate is the index's). Never writes.
 */
export function authorityFacts(db: Database | undefined, sessionId: string, upToSeq: number): StoredFact[] {
  if (!db) throw sessionNotFound(sessionId);
  const { from } = sparseSource(db, AUTHORITY_KINDS);
  const rows = guard(sessionId, () =>
    db
      .query<Row, [string, number]>(
        `SELECT seq, kind, v, at, body FROM ${from} WHERE session_id = ? AND seq <= ? AND ${AUTHORITY_SPARSE_INDEX.predicate} ORDER BY seq`,
      )
      .all(sessionId, upToSeq),
  );
  const blob = blobOf(db, sessionId);
  return rows.map((row) => decodeRecord(sessionId, row, blob));
}

/**
 * Where a query for records of `kinds` reads: through the sparse index that holds them all
 * (facts/sparse-indexes.ts), its predicate said first, when the journal has it; else the facts.
 * SQLite's planner cannot tell how few rows a partial index holds, and would walk the session by its key.
 */
function sparseSource(db: Database, kinds: readonly FactKind[]): { from: string; where: string } {
  const index = sparseIndexFor(kinds);
  if (!index || !hasIndex(db, index.name)) return { from: "facts", where: "" };
  return { from: `facts INDEXED BY ${index.name}`, where: `${index.predicate} AND ` };
}

/** The indexes each database is known to have (a journal only a reader opened since one was added lacks it). */
const indexes = new WeakMap<Database, Set<string>>();

function hasIndex(db: Database, name: string): boolean {
  const known = indexes.get(db) ?? new Set<string>();
  indexes.set(db, known);
  if (known.has(name)) return true;
  const found = db.query("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?").get(name) !== null;
  if (found) known.add(name);
  return found;
}

/** A lookup of the session's blobs by content hash (for records read one query at a time). */
const blobOf =
  (db: Database, sessionId: string) =>
  (hash: string): string | undefined =>
    guard(
      sessionId,
      () =>
        db
          .query<{ data: string }, [string, string]>("SELECT data FROM blobs WHERE session_id = ? AND sha256 = ?")
          .get(sessionId, hash)?.data,
    );

export function countFactsOf(
  db: Database | undefined,
  sessionId: string,
  kinds: readonly FactKind[],
  within: SeqRange = { fromSeq: 1, toSeq: Number.MAX_SAFE_INTEGER },
): number {
  if (!db || kinds.length === 0) return 0;
  const row = guard(sessionId, () =>
    db
      .query<{ n: number }, (string | number)[]>(countOfSql(db, kinds))
      .get(sessionId, within.fromSeq, within.toSeq, ...kinds),
  );
  return row?.n ?? 0;
}

/** The query counting a session's records of `kinds` in a run of seqs (the session id, the run's ends, then the kinds). */
export function countOfSql(db: Database, kinds: readonly FactKind[]): string {
  const { from, where } = sparseSource(db, kinds);
  return `SELECT COUNT(*) AS n FROM ${from} WHERE session_id = ? AND ${where}seq BETWEEN ? AND ? AND kind IN (${kinds.map(() => "?").join(", ")})`;
}

export function lastSeqOf(db: Database | undefined, sessionId: string): number {
  if (!db) return 0;
  const row = guard(sessionId, () =>
    db
      .query<{ n: number }, [string]>("SELECT COALESCE(max(seq), 0) AS n FROM facts WHERE session_id = ?")
      .get(sessionId),
  );
  return row?.n ?? 0;
}

export function childSessions(db: Database | undefined, sessionId: string): SessionRow[] {
  if (!db) return [];
  const rows = guard(sessionId, () =>
    db
      .query<SessionDbRow, [string]>(
        "SELECT * FROM sessions WHERE parent_session_id = ? ORDER BY created_at, session_id",
      )
      .all(sessionId),
  );
  return rows.map(toSessionRow);
}

/** A session's lease row; the writer keeps its own statement of the same text (sqlite-writer.ts). */
export const LEASE_OF_SQL = "SELECT pid, start_time FROM leases WHERE session_id = ?";

/** The lease row of `sessionId` (whose process may have ended since: see process-identity.ts). */
export function leaseOf(db: Database, sessionId: string): { pid: number; start_time: string } | null {
  return db.query<{ pid: number; start_time: string }, [string]>(LEASE_OF_SQL).get(sessionId);
}
