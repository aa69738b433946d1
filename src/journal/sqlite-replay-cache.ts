/**
 * The replay cache's tables in the SQLite journal (see replay-cache.ts). Not part of the layout's
 * append-only rules: rows and parts are derived data that the writer replaces. Created by a
 * writer when it opens the journal; a database without the tables simply has no cache, and one
 * whose schema changed behind verbatim's back has none a load uses (`cacheTrusted`).
 */
import type { Database } from "bun:sqlite";
import { guard } from "./sqlite-errors.ts";
import {
  cacheRowFromDb,
  type CacheDbRow,
  type ReplayCacheKey,
  type ReplayCachePageRow,
  type ReplayCacheRow,
  type ReplayCacheUpdate,
  type ReplayStatePart,
} from "./replay-cache.ts";

/**
 * A rowid table with `lines` last: a row's lines (4-5 KB for a streamed turn) are mostly on its
 * leaf page and the one overflow page after it. In a WITHOUT ROWID table a row keeps about 1 KB
 * on its leaf and the rest on a chain of overflow pages, each read on its own: reading a 10,000-
 * turn session's rows took 2.6x as long in SQLite (docs/performance.md, tenth pass).
 */
export const replayCacheSql = `
CREATE TABLE IF NOT EXISTS replay_cache (
  session_id TEXT NOT NULL,
  version INTEGER NOT NULL,
  capabilities TEXT NOT NULL,
  from_seq INTEGER NOT NULL,
  to_seq INTEGER NOT NULL,
  checksum TEXT NOT NULL,
  lines TEXT NOT NULL,
  PRIMARY KEY (session_id, version, capabilities, from_seq)
);
CREATE TABLE IF NOT EXISTS replay_state (
  session_id TEXT NOT NULL,
  version INTEGER NOT NULL,
  capabilities TEXT NOT NULL,
  part TEXT NOT NULL,
  ord INTEGER NOT NULL,
  body TEXT NOT NULL,
  checksum TEXT NOT NULL,
  PRIMARY KEY (session_id, version, capabilities, part)
);
`;

/** Whether the database has the cache's tables (both come together). */
export function hasReplayCache(db: Database): boolean {
  return (
    db
      .query<{ n: number }, []>(
        "SELECT COUNT(*) AS n FROM sqlite_master WHERE name IN ('replay_cache', 'replay_state')",
      )
      .get()?.n === 2
  );
}

/**
 * Whether a load may use the cache: its tables are there, and the journal's schema is the one
 * the last verbatim writer to open it left (`PRAGMA schema_version`, which SQLite bumps at every
 * change of a table, index or trigger). The facts cannot be changed without a change of the
 * schema (their append-only triggers must be dropped first), so rows kept before such a change
 * may describe facts that are no longer there; the load then replays the facts, and reports a
 * damaged one as `show` does. Damage that bypasses SQL (bytes changed on disk) is not seen.
 */
export function cacheTrusted(db: Database): boolean {
  return (
    db
      .query<{ trusted: number }, []>(
        `SELECT (SELECT COUNT(*) FROM sqlite_master WHERE name IN ('replay_cache', 'replay_state')) = 2
           AND (SELECT value FROM meta WHERE key = '${TRUST_KEY}') = CAST((SELECT schema_version FROM pragma_schema_version) AS TEXT) AS trusted`,
      )
      .get()?.trusted === 1
  );
}

const TRUST_KEY = "replay_cache_schema";

/** The journal's schema version (SQLite's schema cookie). */
export function schemaVersion(db: Database): number {
  return db.query<{ schema_version: number }, []>("PRAGMA schema_version").get()?.schema_version ?? 0;
}

/**
 * Run by a writer when it opens the journal, after its own changes of the schema, in the same
 * transaction: `before` is the schema version it found. If that is not the one the last writer
 * left, the schema was changed by someone else (the facts may have been edited): the cache is
 * dropped (writers store it again from the facts). Then the schema as it stands is the trusted one.
 */
export function settleCacheTrust(db: Database, before: number): void {
  upgradeCacheTable(db);
  db.run(replayCacheSql);
  const stamp = db.query<{ value: string }, []>(`SELECT value FROM meta WHERE key = '${TRUST_KEY}'`).get()?.value;
  if (stamp !== String(before)) {
    db.run("DELETE FROM replay_cache");
    db.run("DELETE FROM replay_state");
  }
  const now = String(schemaVersion(db));
  if (stamp !== now) db.run("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", [TRUST_KEY, now]);
}

/**
 * Moves the rows of a cache table in the layout verbatim used before (WITHOUT ROWID, `lines`
 * before `checksum`) into the one it uses now, row for row, in the caller's transaction. A
 * journal whose table is already in the current layout (or has none) is left as it is.
 */
function upgradeCacheTable(db: Database): void {
  const table = db
    .query<{ sql: string }, []>("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'replay_cache'")
    .get();
  if (!table || !/WITHOUT\s+ROWID/i.test(table.sql)) return;
  db.run("ALTER TABLE replay_cache RENAME TO replay_cache_before");
  db.run(replayCacheSql);
  db.run(
    `INSERT INTO replay_cache (session_id, version, capabilities, from_seq, to_seq, checksum, lines)
     SELECT session_id, version, capabilities, from_seq, to_seq, checksum, lines FROM replay_cache_before
     ORDER BY session_id, version, capabilities, from_seq`,
  );
  db.run("DROP TABLE replay_cache_before");
}

/** Inserts or replaces rows and parts; the caller runs it in the transaction that checks the lease. */
export function putUpdate(db: Database, sessionId: string, key: ReplayCacheKey, update: ReplayCacheUpdate): void {
  db.run(replayCacheSql);
  for (const stale of update.drop ?? []) {
    for (const table of ["replay_cache", "replay_state"])
      db.run(`DELETE FROM ${table} WHERE session_id = ? AND version = ? AND capabilities = ?`, [
        sessionId,
        stale.version,
        stale.capabilities,
      ]);
  }
  putRows(db, sessionId, update.rows);
  const upsert = db.query(
    `INSERT INTO replay_state (session_id, version, capabilities, part, ord, body, checksum) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (session_id, version, capabilities, part) DO UPDATE SET body = excluded.body, checksum = excluded.checksum`,
  );
  for (const p of update.parts) upsert.run(sessionId, key.version, key.capabilities, p.part, p.ord, p.body, p.checksum);
}

/** Inserts or replaces rows (tests use it alone to forge or damage a row). */
export function putRows(db: Database, sessionId: string, rows: readonly ReplayCacheRow[]): void {
  db.run(replayCacheSql);
  const insert = db.query(
    "INSERT OR REPLACE INTO replay_cache (session_id, version, capabilities, from_seq, to_seq, lines, checksum) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
  for (const r of rows) insert.run(sessionId, r.version, r.capabilities, r.fromSeq, r.toSeq, r.lines, r.checksum);
}

export function readRows(db: Database, sessionId: string, key?: ReplayCacheKey): ReplayCacheRow[] {
  if (!hasReplayCache(db)) return [];
  const rows = key
    ? db
        .query<CacheDbRow, [string, number, string]>(
          "SELECT version, capabilities, from_seq, to_seq, lines, checksum FROM replay_cache WHERE session_id = ? AND version = ? AND capabilities = ? ORDER BY from_seq",
        )
        .all(sessionId, key.version, key.capabilities)
    : db
        .query<CacheDbRow, [string]>(
          "SELECT version, capabilities, from_seq, to_seq, lines, checksum FROM replay_cache WHERE session_id = ? ORDER BY version, capabilities, from_seq",
        )
        .all(sessionId);
  return rows.map((r) => cacheRowFromDb(r, r.lines));
}

/**
 * Up to `limit` rows with `key` from the one starting at `fromSeq` on, by `fromSeq`, their lines
 * as the UTF-8 bytes stored (a load writes them out as they are: decoding them to a string and
 * encoding it again cost more than reading them).
 */
export function readRowPage(
  db: Database,
  sessionId: string,
  key: ReplayCacheKey,
  fromSeq: number,
  limit: number,
): ReplayCachePageRow[] {
  if (!cacheTrusted(db)) return [];
  return db
    .query<CacheDbRow<Uint8Array>, [string, number, string, number, number]>(
      "SELECT version, capabilities, from_seq, to_seq, CAST(lines AS BLOB) AS lines, checksum FROM replay_cache WHERE session_id = ? AND version = ? AND capabilities = ? AND from_seq >= ? ORDER BY from_seq LIMIT ?",
    )
    .all(sessionId, key.version, key.capabilities, fromSeq, limit)
    .map((r) => cacheRowFromDb(r, r.lines));
}

/**
 * Rows a page of the SQLite cache holds at most (about 280 KB of lines for streamed turns). A read
 * holds the thread (bun:sqlite is synchronous), and the transport writes to the client only
 * between reads: a small page lets the first lines leave a few milliseconds after the request,
 * and the client reads what was sent while the next page is read.
 */
export const SQLITE_REPLAY_PAGE_ROWS = 64;

/** The rows with `key` from the one starting at `fromSeq` on, in pages of SQLITE_REPLAY_PAGE_ROWS by `fromSeq`. */
export function* rowPages(
  db: Database,
  sessionId: string,
  key: ReplayCacheKey,
  fromSeq: number,
): Generator<ReplayCachePageRow[]> {
  for (let from = fromSeq; ; ) {
    const page = guard(sessionId, () => readRowPage(db, sessionId, key, from, SQLITE_REPLAY_PAGE_ROWS));
    if (page.length > 0) yield page;
    if (page.length < SQLITE_REPLAY_PAGE_ROWS) return;
    from = (page[page.length - 1] as ReplayCachePageRow).fromSeq + 1;
  }
}

/** The parts with `key` (only those `names` names, when given), by `ord` then name. */
export function readParts(
  db: Database,
  sessionId: string,
  key: ReplayCacheKey,
  names?: readonly string[],
): ReplayStatePart[] {
  if (!cacheTrusted(db)) return [];
  if (!names)
    return db
      .query<ReplayStatePart, [string, number, string]>(
        "SELECT part, ord, body, checksum FROM replay_state WHERE session_id = ? AND version = ? AND capabilities = ? ORDER BY ord, part",
      )
      .all(sessionId, key.version, key.capabilities);
  return db
    .query<ReplayStatePart, [string, number, string, string]>(
      "SELECT part, ord, body, checksum FROM replay_state WHERE session_id = ? AND version = ? AND capabilities = ? AND part IN (SELECT value FROM json_each(?)) ORDER BY ord, part",
    )
    .all(sessionId, key.version, key.capabilities, JSON.stringify(names));
}

/** Replaces a stored part as it is (tests use it to forge or damage one). */
export function putPart(db: Database, sessionId: string, key: ReplayCacheKey, part: ReplayStatePart): void {
  db.run(replayCacheSql);
  db.run(
    "INSERT OR REPLACE INTO replay_state (session_id, version, capabilities, part, ord, body, checksum) VALUES (?, ?, ?, ?, ?, ?, ?)",
    [sessionId, key.version, key.capabilities, part.part, part.ord, part.body, part.checksum],
  );
}

export function cacheKeys(db: Database, sessionId: string): ReplayCacheKey[] {
  if (!hasReplayCache(db)) return [];
  return db
    .query<ReplayCacheKey, [string, string]>(
      `SELECT version, capabilities FROM replay_cache WHERE session_id = ?
       UNION SELECT version, capabilities FROM replay_state WHERE session_id = ? ORDER BY version, capabilities`,
    )
    .all(sessionId, sessionId);
}

export function deleteRows(db: Database, sessionId: string): void {
  if (!hasReplayCache(db)) return;
  db.run("DELETE FROM replay_cache WHERE session_id = ?", [sessionId]);
  db.run("DELETE FROM replay_state WHERE session_id = ?", [sessionId]);
}

export function sizes(db: Database, sessionId: string): { cacheBytes: number; factBytes: number } {
  const facts = db
    .query<{ n: number | null }, [string]>(
      "SELECT SUM(LENGTH(CAST(body AS BLOB))) AS n FROM facts WHERE session_id = ?",
    )
    .get(sessionId);
  if (!hasReplayCache(db)) return { cacheBytes: 0, factBytes: facts?.n ?? 0 };
  const sum = (sql: string) => db.query<{ n: number | null }, [string]>(sql).get(sessionId)?.n ?? 0;
  const cacheBytes =
    sum("SELECT SUM(LENGTH(CAST(lines AS BLOB)) + LENGTH(checksum)) AS n FROM replay_cache WHERE session_id = ?") +
    sum(
      "SELECT SUM(LENGTH(CAST(body AS BLOB)) + LENGTH(part) + LENGTH(checksum)) AS n FROM replay_state WHERE session_id = ?",
    );
  return { cacheBytes, factBytes: facts?.n ?? 0 };
}
