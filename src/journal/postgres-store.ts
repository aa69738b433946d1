/**
 * The journal in PostgreSQL (Bun.sql), for sessions shared across machines: the same records
 * and promises as SQLite's (sqlite-store.ts), with one writer per session across machines.
 *
 * Fencing. A writer holds the session's advisory lock, session-scoped, on a connection of its
 * own (a killed process's connection drops and frees it), and the session's lease row names it
 * (host, pid, start time) with an epoch that every takeover increments. Every append checks, in
 * its own statement, that the lease still carries this writer's epoch: a writer that lost its
 * lock and was taken over can never append again, even after it reconnects.
 */
import { SQL } from "bun";
import { hostname } from "node:os";
import { blobRefsOf } from "./blob-refs.ts";
import { decodeRecord, encodeFact, type EncodedFact } from "./codec.ts";
import { JournalError, sessionExists, sessionNotFound } from "./errors.ts";
import type { Fact, FactKind, StoredFact } from "./facts/index.ts";
import { heldElsewhere, pgGuard } from "./postgres-errors.ts";
import { AdvisoryLocks, lockName } from "./postgres-locks.ts";
import { LAYOUT_LOCK_KEY, PG_LAYOUT_VERSION, upgrades } from "./postgres-schema.ts";
import { parsePostgresUrl, type PostgresTarget } from "./postgres-url.ts";
import { currentProcess } from "./process-identity.ts";
import { importedRow, type JournalStore, type LeaseHolder, type ListQuery, type SessionRow } from "./store.ts";
import { toSessionRow, type SessionDbRow } from "./session-rows.ts";

/** Records per page of a read (keyset pages: memory holds one page, however long the session). */
const PAGE_SIZE = 512;
const CONNECT_TIMEOUT_S = 10;

type FactRow = { seq: number; kind: string; v: number; at: string; body: string };
export class PostgresJournal implements JournalStore {
  readonly target: PostgresTarget;
  readonly #sql: SQL;
  /** Sessions this process leases, with the epoch of its lease. */
  readonly #held = new Map<string, number>();
  /** This process's advisory locks, on a connection of their own. */
  readonly #locks: AdvisoryLocks;
  #writable: Promise<void> | undefined;
  #layout: Promise<number | undefined> | undefined;
  readonly #owner = { host: hostname(), ...currentProcess() };

  constructor(
    url: string,
    private readonly options: { poolSize?: number } = {},
  ) {
    this.target = parsePostgresUrl(url);
    this.#sql = this.#connect(options.poolSize ?? 4);
    this.#locks = new AdvisoryLocks(this.target, () => this.#held.size > 0);
  }

  async create(row: SessionRow, first: Fact): Promise<StoredFact> {
    await this.#ensureLayout();
    const id = row.sessionId;
    await this.#lock(id);
    const e = encodeFact(first);
    await this.#guard(id, () =>
      this.#sql.begin(async (tx) => {
        await tx`INSERT INTO verbatim.sessions (session_id, cwd, additional_directories, title, created_at, updated_at, parent_session_id)
          VALUES (${id}, ${row.cwd}, ${JSON.stringify(row.additionalDirectories)}, ${row.title ?? null}, ${row.createdAt}, ${row.updatedAt}, ${row.parentSessionId ?? null})`;
        await tx`INSERT INTO verbatim.leases (session_id, host, pid, start_time, epoch)
          VALUES (${id}, ${this.#owner.host}, ${this.#owner.pid}, ${this.#owner.startTime}, 1)`;
        for (const [hash, data] of e.blobs) {
          await tx`INSERT INTO verbatim.blobs (session_id, sha256, data) VALUES (${id}, ${hash}, ${data}) ON CONFLICT DO NOTHING`;
        }
        await tx`INSERT INTO verbatim.facts (session_id, seq, kind, v, at, body) VALUES (${id}, 1, ${e.kind}, ${e.v}, ${row.createdAt}, ${e.body})`;
      }),
    ).catch(async (error: unknown) => {
      await this.#locks.give(id);
      throw error;
    });
    this.#held.set(id, 1);
    return { seq: 1, at: row.createdAt, fact: first };
  }

  async fork(row: SessionRow & { forkOf: { sessionId: string; seq: number } }, last: Fact): Promise<StoredFact> {
    await this.#ensureLayout();
    const id = row.sessionId;
    const from = row.forkOf;
    const at = row.updatedAt;
    const e = encodeFact(last);
    await this.#guard(id, () =>
      this.#sql.begin(async (tx) => {
        await tx`INSERT INTO verbatim.sessions (session_id, cwd, additional_directories, title, created_at, updated_at, parent_session_id, forked_from)
          VALUES (${id}, ${row.cwd}, ${JSON.stringify(row.additionalDirectories)}, ${row.title ?? null}, ${row.createdAt}, ${row.updatedAt}, ${row.parentSessionId ?? null}, ${JSON.stringify(from)})`;
        const copied = await tx`INSERT INTO verbatim.facts (session_id, seq, kind, v, at, body)
          SELECT ${id}, seq, kind, v, at, body FROM verbatim.facts WHERE session_id = ${from.sessionId} AND seq <= ${from.seq} ORDER BY seq`;
        if (copied.count !== from.seq) throw sessionNotFound(from.sessionId);
        await tx`INSERT INTO verbatim.blobs (session_id, sha256, data) SELECT ${id}, sha256, data FROM verbatim.blobs WHERE session_id = ${from.sessionId}`;
        for (const [hash, data] of e.blobs) {
          await tx`INSERT INTO verbatim.blobs (session_id, sha256, data) VALUES (${id}, ${hash}, ${data}) ON CONFLICT DO NOTHING`;
        }
        await tx`INSERT INTO verbatim.facts (session_id, seq, kind, v, at, body) VALUES (${id}, ${from.seq + 1}, ${e.kind}, ${e.v}, ${at}, ${e.body})`;
      }),
    );
    return { seq: from.seq + 1, at, fact: last };
  }

  async importSession(row: SessionRow, records: readonly { fact: Fact; at: string }[]): Promise<void> {
    await this.#ensureLayout();
    const id = row.sessionId;
    const encoded = records.map(({ fact }) => encodeFact(fact));
    const blobs: { sha256: string; data: string }[] = [];
    for (const e of encoded) for (const [sha256, data] of e.blobs) blobs.push({ sha256, data });
    const rows = encoded.map((e, i) => ({ seq: i + 1, kind: e.kind, v: e.v, at: records[i]!.at, body: e.body }));
    const { title, updatedAt } = importedRow(row, records);
    await this.#guard(id, () =>
      this.#sql.begin(async (tx) => {
        const [present] = (await tx`SELECT 1 AS one FROM verbatim.sessions WHERE session_id = ${id}`) as unknown[];
        if (present) throw sessionExists(id);
        await tx`INSERT INTO verbatim.sessions (session_id, cwd, additional_directories, title, created_at, updated_at, parent_session_id, forked_from)
          VALUES (${id}, ${row.cwd}, ${JSON.stringify(row.additionalDirectories)}, ${title ?? null}, ${row.createdAt}, ${updatedAt}, ${row.parentSessionId ?? null}, ${row.forkOf ? JSON.stringify(row.forkOf) : null})`;
        await tx`INSERT INTO verbatim.blobs (session_id, sha256, data)
          SELECT ${id}, b.sha256, b.data FROM json_to_recordset(${JSON.stringify(blobs)}::text::json) AS b(sha256 text, data text)
          ON CONFLICT DO NOTHING`;
        await tx`INSERT INTO verbatim.facts (session_id, seq, kind, v, at, body)
          SELECT ${id}, f.seq, f.kind, f.v, f.at, f.body FROM json_to_recordset(${JSON.stringify(rows)}::text::json) AS f(seq integer, kind text, v integer, at text, body text)
          ORDER BY f.seq`;
      }),
    );
  }

  async append(sessionId: string, seq: number, fact: Fact, at: string): Promise<StoredFact> {
    const [record] = await this.appendMany(sessionId, seq, [{ fact, at }]);
    return record as StoredFact;
  }

  async appendMany(
    sessionId: string,
    firstSeq: number,
    facts: readonly { fact: Fact; at: string }[],
  ): Promise<StoredFact[]> {
    if (facts.length === 0) return [];
    if (this.#locks.lost) await this.#relock();
    const epoch = this.#held.get(sessionId);
    if (epoch === undefined) throw heldElsewhere(sessionId, await this.holder(sessionId));
    const encoded = facts.map(({ fact }) => encodeFact(fact));
    const blobs: { sha256: string; data: string }[] = [];
    for (const e of encoded) for (const [sha256, data] of e.blobs) blobs.push({ sha256, data });
    const rows = encoded.map((e: EncodedFact, i) => ({
      seq: firstSeq + i,
      kind: e.kind,
      v: e.v,
      at: facts[i]!.at,
      body: e.body,
    }));
    let title: string | null = null;
    for (const { fact } of facts) if (fact.kind === "title_set") title = fact.title;
    const last = facts[facts.length - 1]!.at;
    // One statement, one round trip, one transaction: the epoch check and the writes stand or fall together.
    const [result] = (await this.#guard(
      sessionId,
      () => this.#sql`
      WITH lease AS (
        SELECT 1 FROM verbatim.leases WHERE session_id = ${sessionId} AND epoch = ${epoch} FOR SHARE
      ), blob AS (
        INSERT INTO verbatim.blobs (session_id, sha256, data)
        SELECT ${sessionId}, b.sha256, b.data FROM json_to_recordset(${JSON.stringify(blobs)}::text::json) AS b(sha256 text, data text)
        WHERE EXISTS (SELECT 1 FROM lease)
        ON CONFLICT DO NOTHING
      ), fact AS (
        INSERT INTO verbatim.facts (session_id, seq, kind, v, at, body)
        SELECT ${sessionId}, f.seq, f.kind, f.v, f.at, f.body FROM json_to_recordset(${JSON.stringify(rows)}::text::json) AS f(seq integer, kind text, v integer, at text, body text)
        WHERE EXISTS (SELECT 1 FROM lease)
        ORDER BY f.seq
        RETURNING seq
      ), touched AS (
        UPDATE verbatim.sessions SET updated_at = ${last}, title = COALESCE(${title}::text, title)
        WHERE session_id = ${sessionId} AND EXISTS (SELECT 1 FROM lease)
      )
      SELECT EXISTS (SELECT 1 FROM lease) AS ours, (SELECT count(*) FROM fact)::int AS written`,
    )) as { ours: boolean; written: number }[];
    if (!result?.ours) {
      this.#held.delete(sessionId);
      throw heldElsewhere(sessionId, await this.holder(sessionId));
    }
    return rows.map((row, i) => ({ seq: row.seq, at: row.at, fact: facts[i]!.fact }));
  }

  async *readPages(sessionId: string, fromSeq = 1): AsyncGenerator<readonly StoredFact[]> {
    if ((await this.#readLayout()) === undefined) throw sessionNotFound(sessionId);
    let expected = fromSeq;
    for (;;) {
      const from = expected;
      const rows = (await this.#guard(
        sessionId,
        () => this.#sql`
        SELECT seq, kind, v, at, body FROM verbatim.facts
        WHERE session_id = ${sessionId} AND seq >= ${from} ORDER BY seq LIMIT ${PAGE_SIZE}`,
      )) as FactRow[];
      if (rows.length === 0) break;
      const blobs = await this.#blobsFor(sessionId, rows);
      const page: StoredFact[] = [];
      for (const row of rows) {
        if (row.seq !== expected) {
          throw new JournalError(
            "missing_record",
            `session ${sessionId} is missing record ${expected} (the next stored record is ${row.seq})`,
            { sessionId, seq: expected },
          );
        }
        expected++;
        page.push(decodeRecord(sessionId, row, (hash) => blobs.get(hash)));
      }
      yield page;
      if (rows.length < PAGE_SIZE) break;
    }
    if (expected === 1 && fromSeq === 1) throw sessionNotFound(sessionId);
  }

  async info(sessionId: string): Promise<SessionRow | undefined> {
    if ((await this.#readLayout()) === undefined) return undefined;
    const [row] = (await this.#guard(
      sessionId,
      () => this.#sql`SELECT * FROM verbatim.sessions WHERE session_id = ${sessionId}`,
    )) as SessionDbRow[];
    return row ? toSessionRow(row) : undefined;
  }

  async list(query: ListQuery): Promise<SessionRow[]> {
    if ((await this.#readLayout()) === undefined) return [];
    const asOf = query.asOf ?? new Date().toISOString();
    const args: string[] = [asOf];
    const where = [
      "s.parent_session_id IS NULL",
      "s.created_at <= $1",
      "EXISTS (SELECT 1 FROM verbatim.facts p WHERE p.session_id = s.session_id AND p.kind = 'prompt_received' AND p.at <= $1)",
    ];
    if (query.cwd !== undefined) {
      args.push(query.cwd);
      where.push(`s.cwd = $${args.length}`);
    }
    if (query.exceptCwd !== undefined) {
      args.push(query.exceptCwd);
      where.push(`s.cwd <> $${args.length}`);
    }
    if (query.repository !== undefined) {
      // As in SQLite's list: the session's first record says where it started.
      args.push(query.repository.remote, query.repository.innerPath);
      where.push(`EXISTS (SELECT 1 FROM verbatim.facts o WHERE o.session_id = s.session_id AND o.seq = 1
        AND (o.body::jsonb #>> '{origin,git,remote}') = $${args.length - 1} AND (o.body::jsonb #>> '{origin,git,innerPath}') = $${args.length})`);
    }
    let after = "";
    if (query.after) {
      args.push(query.after.updatedAt, query.after.sessionId);
      after = `WHERE activity < $${args.length - 1} OR (activity = $${args.length - 1} AND session_id < $${args.length})`;
    }
    const limit = Math.max(1, Math.floor(query.limit));
    // A session written after `asOf` is placed by its last record before then, so its place
    // does not move between the pages of one listing (as in SQLite's list).
    const text = `SELECT * FROM (
      SELECT s.*, CASE WHEN s.updated_at <= $1 THEN s.updated_at
        ELSE (SELECT MAX(f.at) FROM verbatim.facts f WHERE f.session_id = s.session_id AND f.at <= $1) END AS activity
      FROM verbatim.sessions s WHERE ${where.join(" AND ")}
    ) listed ${after} ORDER BY activity DESC, session_id DESC LIMIT ${limit}`;
    const rows = (await this.#guard(undefined, () => this.#sql.unsafe(text, args))) as (SessionDbRow & {
      activity: string;
    })[];
    return rows.map((row) => ({ ...toSessionRow(row), updatedAt: row.activity }));
  }

  async lastOf(sessionId: string, kinds: readonly FactKind[]): Promise<StoredFact | undefined> {
    if (kinds.length === 0 || (await this.#readLayout()) === undefined) return undefined;
    const rows = (await this.#guard(
      sessionId,
      () => this.#sql`
      SELECT seq, kind, v, at, body FROM verbatim.facts
      WHERE session_id = ${sessionId} AND kind = ANY(${this.#sql.array([...kinds], "TEXT")}) ORDER BY seq DESC LIMIT 1`,
    )) as FactRow[];
    const row = rows[0];
    if (!row) return undefined;
    const blobs = await this.#blobsFor(sessionId, rows);
    return decodeRecord(sessionId, row, (hash) => blobs.get(hash));
  }

  /** Deletes a session with its blobs and its subagents' child sessions, all or nothing. */
  async delete(sessionId: string): Promise<boolean> {
    await this.#ensureLayout();
    const deleted = await this.#guard(sessionId, () =>
      this.#sql.begin(async (tx) => {
        const doomed = (
          (await tx`
          WITH RECURSIVE tree(id) AS (
            SELECT ${sessionId}::text UNION SELECT s.session_id FROM verbatim.sessions s JOIN tree ON s.parent_session_id = tree.id
          ) SELECT id FROM tree`) as { id: string }[]
        ).map((r) => r.id);
        for (const id of doomed) {
          const holder = await this.#liveHolder(tx, id);
          if (holder && !this.#held.has(id)) throw heldElsewhere(id, holder);
        }
        let gone = false;
        for (const id of doomed) {
          await tx`INSERT INTO verbatim.deleting (session_id) VALUES (${id}) ON CONFLICT DO NOTHING`;
          await tx`DELETE FROM verbatim.facts WHERE session_id = ${id}`;
          await tx`DELETE FROM verbatim.blobs WHERE session_id = ${id}`;
          await tx`DELETE FROM verbatim.deleting WHERE session_id = ${id}`;
          await tx`DELETE FROM verbatim.leases WHERE session_id = ${id}`;
          const removed = await tx`DELETE FROM verbatim.sessions WHERE session_id = ${id}`;
          if (id === sessionId) gone = removed.count > 0;
        }
        return gone;
      }),
    );
    if (this.#held.delete(sessionId)) await this.#locks.give(sessionId);
    return deleted;
  }

  async acquire(sessionId: string): Promise<void> {
    if (this.#locks.lost) await this.#relock();
    if (this.#held.has(sessionId)) return;
    await this.#ensureLayout();
    await this.#lock(sessionId);
    // A takeover: the epoch moves on, so that whoever held the session before can append nothing more.
    const [lease] = (await this.#guard(
      sessionId,
      () => this.#sql`
      INSERT INTO verbatim.leases (session_id, host, pid, start_time, epoch)
      VALUES (${sessionId}, ${this.#owner.host}, ${this.#owner.pid}, ${this.#owner.startTime}, 1)
      ON CONFLICT (session_id) DO UPDATE SET host = excluded.host, pid = excluded.pid, start_time = excluded.start_time, epoch = verbatim.leases.epoch + 1
      RETURNING epoch::float8 AS epoch`,
    )) as { epoch: number }[];
    this.#held.set(sessionId, lease!.epoch);
  }

  async release(sessionId: string): Promise<void> {
    const epoch = this.#held.get(sessionId);
    if (epoch === undefined) return;
    this.#held.delete(sessionId);
    // The lease row stays, its epoch moved on and no holder named: epochs only ever grow.
    await this.#guard(
      sessionId,
      () => this.#sql`
      UPDATE verbatim.leases SET epoch = epoch + 1, host = '', pid = 0, start_time = ''
      WHERE session_id = ${sessionId} AND epoch = ${epoch}`,
    );
    await this.#locks.give(sessionId);
  }

  async holder(sessionId: string): Promise<LeaseHolder | undefined> {
    if (this.#held.has(sessionId)) return { pid: this.#owner.pid, host: this.#owner.host };
    if ((await this.#readLayout()) === undefined) return undefined;
    return this.#guard(sessionId, () => this.#liveHolder(this.#sql, sessionId));
  }

  warm(): void {
    this.#readLayout().catch(() => undefined);
  }

  async close(): Promise<void> {
    this.#held.clear();
    await Promise.all([this.#sql.close({ timeout: 1 }), this.#locks.close()]).catch(() => undefined);
  }

  /** The named holder of a session's lease, if its advisory lock is held right now (by a live connection). */
  async #liveHolder(sql: SQL, sessionId: string): Promise<LeaseHolder | undefined> {
    const [row] = (await sql`
      SELECT l.host, l.pid FROM verbatim.leases l
      WHERE l.session_id = ${sessionId} AND l.pid <> 0 AND EXISTS (
        SELECT 1 FROM pg_locks k
        WHERE k.locktype = 'advisory' AND k.granted AND k.objsubid = 1
          AND k.database = (SELECT oid FROM pg_database WHERE datname = current_database())
          AND ((k.classid::bigint << 32) | k.objid::bigint) = hashtextextended(${lockName(sessionId)}, 0)
      )`) as { host: string; pid: number }[];
    return row ? { pid: row.pid, host: row.host } : undefined;
  }

  /** Takes the session's advisory lock, or throws `busy` naming who holds it (see AdvisoryLocks.take). */
  async #lock(sessionId: string): Promise<void> {
    if (!(await this.#guard(sessionId, () => this.#locks.take(sessionId)))) {
      throw heldElsewhere(sessionId, await this.#guard(sessionId, () => this.#liveHolder(this.#sql, sessionId)));
    }
  }

  /**
   * The lock connection closed (the server restarted, or ended it): its locks are gone. Each
   * session is locked again on a new connection, and kept only if its lease still carries this
   * writer's epoch (nobody took it over meanwhile); one taken over is given up. While the server
   * is out of reach the sessions stay this writer's, to lock again at its next append.
   */
  async #relock(): Promise<void> {
    await this.#locks.reset();
    try {
      for (const [sessionId, epoch] of [...this.#held]) {
        if (!(await this.#guard(sessionId, () => this.#locks.take(sessionId)))) {
          this.#held.delete(sessionId);
          continue;
        }
        const [lease] = (await this.#guard(
          sessionId,
          () => this.#sql`SELECT 1 AS ok FROM verbatim.leases WHERE session_id = ${sessionId} AND epoch = ${epoch}`,
        )) as { ok: number }[];
        if (!lease) {
          this.#held.delete(sessionId);
          await this.#locks.give(sessionId);
        }
      }
      this.#locks.relocked(true);
    } catch (error) {
      await this.#locks.reset();
      this.#locks.relocked(false);
      throw error;
    }
  }

  #connect(max: number): SQL {
    return new SQL({ url: this.target.url, max, connectionTimeout: CONNECT_TIMEOUT_S, tls: this.target.sslMode });
  }

  /** Blobs the page's records refer to, by content hash. */
  async #blobsFor(sessionId: string, rows: FactRow[]): Promise<Map<string, string>> {
    const hashes = new Set<string>();
    for (const row of rows) {
      if (!row.body.includes('"$blobs"')) continue;
      try {
        for (const ref of blobRefsOf(JSON.parse(row.body) as Record<string, unknown>) ?? []) hashes.add(ref.sha256);
      } catch {
        // Decoding reports the record as damaged.
      }
    }
    if (hashes.size === 0) return new Map();
    const found = (await this.#guard(
      sessionId,
      () => this.#sql`
      SELECT sha256, data FROM verbatim.blobs
      WHERE session_id = ${sessionId} AND sha256 IN (SELECT json_array_elements_text(${JSON.stringify([...hashes])}::text::json))`,
    )) as { sha256: string; data: string }[];
    return new Map(found.map((b) => [b.sha256, b.data]));
  }

  /** The layout version, or undefined where no journal was ever written; throws for a newer one. Never writes. */
  #readLayout(): Promise<number | undefined> {
    const layout = this.#layout ?? this.#guard(undefined, () => currentLayout(this.#sql)).then(checkVersion);
    // Only a layout found is kept: another process may create it at any moment.
    this.#layout = layout;
    layout.then(
      (version) => {
        if (version === undefined && this.#layout === layout) this.#layout = undefined;
      },
      () => {
        if (this.#layout === layout) this.#layout = undefined;
      },
    );
    return layout;
  }

  /** Creates or upgrades the layout before the first write (under a lock: processes may start together). */
  #ensureLayout(): Promise<void> {
    this.#writable ??= this.#guard(undefined, () =>
      this.#sql.begin(async (tx) => {
        await tx`SELECT pg_advisory_xact_lock(${LAYOUT_LOCK_KEY})`;
        const version = checkVersion(await currentLayout(tx)) ?? 0;
        for (let v = version; v < PG_LAYOUT_VERSION; v++) await tx.unsafe(upgrades[v]!);
        if (version < PG_LAYOUT_VERSION) {
          await tx`INSERT INTO verbatim.meta (key, value) VALUES ('layout', ${String(PG_LAYOUT_VERSION)})
            ON CONFLICT (key) DO UPDATE SET value = excluded.value`;
        }
      }),
    ).then(() => {
      this.#layout = Promise.resolve(PG_LAYOUT_VERSION);
    });
    this.#writable.catch(() => {
      this.#writable = undefined;
    });
    return this.#writable;
  }

  #guard<T>(sessionId: string | undefined, run: () => Promise<T>): Promise<T> {
    return pgGuard(this.target, sessionId, run);
  }
}

async function currentLayout(sql: SQL): Promise<number | undefined> {
  const [present] = (await sql`SELECT to_regclass('verbatim.meta') IS NOT NULL AS present`) as { present: boolean }[];
  if (!present?.present) return undefined;
  const [row] = (await sql`SELECT value FROM verbatim.meta WHERE key = 'layout'`) as { value: string }[];
  const version = Number(row?.value);
  if (!row || !Number.isInteger(version))
    throw new JournalError("corrupt_database", "the journal database has no layout record");
  return version;
}

function checkVersion(version: number | undefined): number | undefined {
  if (version !== undefined && version > PG_LAYOUT_VERSION) {
    throw new JournalError(
      "newer_database",
      `the journal database was written by a newer verbatim (layout ${version}; this version knows ${PG_LAYOUT_VERSION})`,
    );
  }
  return version;
}
