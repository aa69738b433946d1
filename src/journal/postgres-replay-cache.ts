/**
 * The replay cache's tables in the PostgreSQL journal (see replay-cache.ts), beside the layout
 * (postgres-schema.ts) rather than in it: rows and parts are derived data that the writer
 * replaces, not facts, so they carry no append-only trigger and need no layout version. The first
 * writer that stores a row creates them (under the layout's lock: processes may start together);
 * a journal without them simply has no cache, and a reader that finds none reads nothing.
 */
import type { SQL } from "bun";
import { heldElsewhere } from "./postgres-errors.ts";
import type { PostgresLayout } from "./postgres-layout.ts";
import { LAYOUT_LOCK_KEY } from "./postgres-schema.ts";
import {
  cacheRowFromDb,
  REPLAY_PAGE_ROWS,
  type CacheDbRow,
  type ReplayCacheKey,
  type ReplayCachePageRow,
  type ReplayCacheRow,
  type ReplayCacheStore,
  type ReplayCacheUpdate,
  type ReplayStatePart,
} from "./replay-cache.ts";
import type { LeaseHolder } from "./store.ts";
import { packLines, unpackLines, unpackLinesForLoad } from "./postgres-packed-lines.ts";
import { prefetchedPages } from "./prefetched-pages.ts";

type Guard = <T>(sessionId: string | undefined, run: () => Promise<T>) => Promise<T>;

/** The PostgreSQL store's replay cache (ReplayCacheStore), given what the store knows of its leases. */
export class PostgresReplayCache implements ReplayCacheStore {
  readonly keepsReplayCache = true;

  constructor(
    private readonly sql: SQL,
    private readonly guard: Guard,
    private readonly layout: PostgresLayout,
    /** The epoch of this process's lease on a session, if it holds one. */
    private readonly epochOf: (sessionId: string) => number | undefined,
    private readonly holder: (sessionId: string) => Promise<LeaseHolder | undefined>,
  ) {}

  async putReplayCache(sessionId: string, key: ReplayCacheKey, update: ReplayCacheUpdate): Promise<void> {
    const epoch = this.epochOf(sessionId);
    if (epoch === undefined) throw heldElsewhere(sessionId, await this.holder(sessionId));
    await this.layout.ensure();
    const stored = await this.guard(sessionId, () => putPgReplayCache(this.sql, sessionId, epoch, key, update));
    if (!stored) throw heldElsewhere(sessionId, await this.holder(sessionId));
  }

  async readReplayCache(sessionId: string, key?: ReplayCacheKey): Promise<ReplayCacheRow[]> {
    if ((await this.layout.read()) === undefined) return [];
    return this.guard(sessionId, () => readPgRows(this.sql, sessionId, key));
  }

  /** Pages of REPLAY_PAGE_ROWS, the next asked for while the caller writes this one (prefetched-pages.ts). */
  async *readReplayPages(sessionId: string, key: ReplayCacheKey, fromSeq = 1): AsyncGenerator<ReplayCachePageRow[]> {
    if ((await this.layout.read()) === undefined) return;
    yield* prefetchedPages(
      (from) => this.guard(sessionId, () => readPgRowPage(this.sql, sessionId, key, from, REPLAY_PAGE_ROWS)),
      REPLAY_PAGE_ROWS,
      fromSeq,
    );
  }

  async readReplayState(sessionId: string, key: ReplayCacheKey, names?: readonly string[]): Promise<ReplayStatePart[]> {
    if ((await this.layout.read()) === undefined) return [];
    return this.guard(sessionId, () => readPgParts(this.sql, sessionId, key, names));
  }

  async replayCacheKeys(sessionId: string): Promise<ReplayCacheKey[]> {
    if ((await this.layout.read()) === undefined) return [];
    return this.guard(sessionId, async () => {
      if (!(await hasTables(this.sql))) return [];
      return (await this.sql`
        SELECT version, capabilities FROM verbatim.replay_cache WHERE session_id = ${sessionId}
        UNION SELECT version, capabilities FROM verbatim.replay_state WHERE session_id = ${sessionId}
        ORDER BY version, capabilities`) as ReplayCacheKey[];
    });
  }

  async replayCacheSize(sessionId: string): Promise<{ cacheBytes: number; factBytes: number }> {
    if ((await this.layout.read()) === undefined) return { cacheBytes: 0, factBytes: 0 };
    const rows = (await this.guard(
      sessionId,
      () => this.sql`
      SELECT COALESCE(SUM(octet_length(body)), 0)::int AS n FROM verbatim.facts WHERE session_id = ${sessionId}`,
    )) as { n: number }[];
    const cacheBytes = await this.guard(sessionId, () => pgReplayCacheBytes(this.sql, sessionId));
    return { cacheBytes, factBytes: Number(rows[0]?.n ?? 0) };
  }
}

const tablesSql = `
CREATE TABLE IF NOT EXISTS verbatim.replay_cache (
  session_id text NOT NULL,
  version integer NOT NULL,
  capabilities text NOT NULL,
  from_seq integer NOT NULL,
  to_seq integer NOT NULL,
  lines text NOT NULL,
  checksum text NOT NULL,
  PRIMARY KEY (session_id, version, capabilities, from_seq)
);
CREATE TABLE IF NOT EXISTS verbatim.replay_state (
  session_id text NOT NULL,
  version integer NOT NULL,
  capabilities text NOT NULL,
  part text NOT NULL,
  ord integer NOT NULL,
  body text NOT NULL,
  checksum text NOT NULL,
  PRIMARY KEY (session_id, version, capabilities, part)
);
`;

/** Connections whose database is known to have the tables (created here, or found). */
const ready = new WeakSet<SQL>();

async function ensureTables(sql: SQL): Promise<void> {
  if (ready.has(sql)) return;
  await sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${LAYOUT_LOCK_KEY})`;
    await tx.unsafe(tablesSql);
  });
  ready.add(sql);
}

async function hasTables(sql: SQL): Promise<boolean> {
  if (ready.has(sql)) return true;
  const [row] = (await sql`SELECT to_regclass('verbatim.replay_state') IS NOT NULL AS present`) as {
    present: boolean;
  }[];
  if (row?.present) ready.add(sql);
  return row?.present === true;
}

/**
 * Stores rows and parts in one transaction that first checks the lease still carries `epoch` (a
 * writer taken over stores nothing). False when it does not.
 */
export async function putPgReplayCache(
  sql: SQL,
  sessionId: string,
  epoch: number,
  key: ReplayCacheKey,
  update: ReplayCacheUpdate,
): Promise<boolean> {
  await ensureTables(sql);
  const rows = JSON.stringify(
    update.rows.map((r) => ({
      from_seq: r.fromSeq,
      to_seq: r.toSeq,
      lines: packLines(r.lines),
      checksum: r.checksum,
    })),
  );
  const parts = JSON.stringify(update.parts);
  return sql.begin(async (tx) => {
    const [lease] = (await tx`
      SELECT 1 AS ok FROM verbatim.leases WHERE session_id = ${sessionId} AND epoch = ${epoch} FOR SHARE`) as {
      ok: number;
    }[];
    if (!lease) return false;
    for (const stale of update.drop ?? []) {
      await tx`DELETE FROM verbatim.replay_cache
        WHERE session_id = ${sessionId} AND version = ${stale.version} AND capabilities = ${stale.capabilities}`;
      await tx`DELETE FROM verbatim.replay_state
        WHERE session_id = ${sessionId} AND version = ${stale.version} AND capabilities = ${stale.capabilities}`;
    }
    await tx`
      INSERT INTO verbatim.replay_cache (session_id, version, capabilities, from_seq, to_seq, lines, checksum)
      SELECT ${sessionId}, ${key.version}, ${key.capabilities}, r.from_seq, r.to_seq, r.lines, r.checksum
      FROM json_to_recordset(${rows}::text::json) AS r(from_seq integer, to_seq integer, lines text, checksum text)
      ON CONFLICT (session_id, version, capabilities, from_seq)
      DO UPDATE SET to_seq = excluded.to_seq, lines = excluded.lines, checksum = excluded.checksum`;
    await tx`
      INSERT INTO verbatim.replay_state (session_id, version, capabilities, part, ord, body, checksum)
      SELECT ${sessionId}, ${key.version}, ${key.capabilities}, p.part, p.ord, p.body, p.checksum
      FROM json_to_recordset(${parts}::text::json) AS p(part text, ord integer, body text, checksum text)
      ON CONFLICT (session_id, version, capabilities, part)
      DO UPDATE SET body = excluded.body, checksum = excluded.checksum`;
    return true;
  });
}

export async function readPgRows(sql: SQL, sessionId: string, key?: ReplayCacheKey): Promise<ReplayCacheRow[]> {
  if (!(await hasTables(sql))) return [];
  const rows = (
    key
      ? await sql`
        SELECT version, capabilities, from_seq, to_seq, lines, checksum FROM verbatim.replay_cache
        WHERE session_id = ${sessionId} AND version = ${key.version} AND capabilities = ${key.capabilities}
        ORDER BY from_seq`
      : await sql`
        SELECT version, capabilities, from_seq, to_seq, lines, checksum FROM verbatim.replay_cache
        WHERE session_id = ${sessionId} ORDER BY version, capabilities, from_seq`
  ) as CacheDbRow[];
  return rows.map((r) => cacheRowFromDb(r, unpackLines(r.lines)));
}

/** Up to `limit` rows with `key` from the one starting at `fromSeq` on, by `fromSeq`, their lines unpacked (as bytes, when packed). */
export async function readPgRowPage(
  sql: SQL,
  sessionId: string,
  key: ReplayCacheKey,
  fromSeq: number,
  limit: number,
): Promise<ReplayCachePageRow[]> {
  if (!(await hasTables(sql))) return [];
  const rows = (await sql`
    SELECT version, capabilities, from_seq, to_seq, lines, checksum FROM verbatim.replay_cache
    WHERE session_id = ${sessionId} AND version = ${key.version} AND capabilities = ${key.capabilities}
      AND from_seq >= ${fromSeq}
    ORDER BY from_seq LIMIT ${limit}`) as CacheDbRow[];
  return rows.map((r) => cacheRowFromDb(r, unpackLinesForLoad(r.lines)));
}

/**
 * The parts with `key` (only those `names` names, when given), by `ord` then name. The names are
 * matched with `= ANY(ARRAY(...))`, which the primary key's index serves; `IN (SELECT ...)` was, without
 * fresh statistics, a hash join over every part of the session (35-50 ms for a 10,000-turn session's head).
 */
export async function readPgParts(
  sql: SQL,
  sessionId: string,
  key: ReplayCacheKey,
  names?: readonly string[],
): Promise<ReplayStatePart[]> {
  if (!(await hasTables(sql))) return [];
  const rows = (
    names
      ? await sql`
        SELECT part, ord, body, checksum FROM verbatim.replay_state
        WHERE session_id = ${sessionId} AND version = ${key.version} AND capabilities = ${key.capabilities}
          AND part = ANY(ARRAY(SELECT json_array_elements_text(${JSON.stringify(names)}::text::json)))
        ORDER BY ord, part COLLATE "C"`
      : await sql`
        SELECT part, ord, body, checksum FROM verbatim.replay_state
        WHERE session_id = ${sessionId} AND version = ${key.version} AND capabilities = ${key.capabilities}
        ORDER BY ord, part COLLATE "C"`
  ) as ReplayStatePart[];
  return rows.map((p) => ({ part: p.part, ord: p.ord, body: p.body, checksum: p.checksum }));
}

/** Removes a session's cache, in the transaction deleting the session. */
export async function deletePgReplayCache(tx: SQL, sessionId: string): Promise<void> {
  const [row] = (await tx`SELECT to_regclass('verbatim.replay_state') IS NOT NULL AS present`) as {
    present: boolean;
  }[];
  if (!row?.present) return;
  await tx`DELETE FROM verbatim.replay_cache WHERE session_id = ${sessionId}`;
  await tx`DELETE FROM verbatim.replay_state WHERE session_id = ${sessionId}`;
}

/** Bytes the session's cache holds (lines and state). */
export async function pgReplayCacheBytes(sql: SQL, sessionId: string): Promise<number> {
  if (!(await hasTables(sql))) return 0;
  const [row] = (await sql`
    SELECT
      COALESCE((SELECT SUM(octet_length(lines) + octet_length(checksum)) FROM verbatim.replay_cache WHERE session_id = ${sessionId}), 0)
      + COALESCE((SELECT SUM(octet_length(body) + octet_length(part) + octet_length(checksum)) FROM verbatim.replay_state WHERE session_id = ${sessionId}), 0)
      AS n`) as { n: number | string }[];
  return Number(row?.n ?? 0);
}
