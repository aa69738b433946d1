/**
 * The journal in PostgreSQL (Bun.sql), for sessions shared across machines: the same records
 * and promises as SQLite's (sqlite-store.ts), with one writer per session across machines.
 *
 * Fencing. A writer holds the session's advisory lock, session-scoped, on a connection of its
 * own (a killed process's connection drops and frees it), and the session's lease row names it
 * (host, pid, start time) with an epoch that every takeover increments. Every append checks, in
 * its own statement, that the lease still carries this writer's epoch: a writer that lost its
 * lock and was taken over can never append again, even after it reconnects.
 *
 * Durability, as SQLite's (store.ts, `Durability`): an append's commit is on the server, which
 * outlives any verbatim process, before the append resolves. `normal` (the default) does not wait
 * for the server's WAL flush (`synchronous_commit = off` for the append's transaction alone, as
 * SQLite's `synchronous=NORMAL` does not fsync): a crash of the server loses at most its last
 * few hundred milliseconds of appends, a suffix, never a hole. `strict` waits for the flush
 * (the server's `synchronous_commit`, `on` where the server has it `off`). A takeover always
 * waits for it: fencing never rests on an epoch a crash could undo.
 *
 * This file writes; the leases are postgres-leases.ts, reading postgres-reads.ts, the layout postgres-layout.ts.
 */
import type { SQL } from "bun";
import { encodeFact, type EncodedFact } from "./codec.ts";
import type { Fact, FactKind, StoredFact } from "./facts/index.ts";
import { heldElsewhere, MAX_POOL_SIZE, pgGuard } from "./postgres-errors.ts";
import { DEFAULT_POOL_SIZE, openPool, takeEarly } from "./postgres-pool.ts";
import { PostgresLayout } from "./postgres-layout.ts";
import { PostgresLeases } from "./postgres-leases.ts";
import { insertCreated, insertFork, insertImported } from "./postgres-new-sessions.ts";
import { PostgresReads } from "./postgres-reads.ts";
import { parsePostgresUrl, type PostgresTarget } from "./postgres-url.ts";
import { notifyChange, PostgresWatch } from "./postgres-watch.ts";
import type { ChangeListener, WatchOptions } from "./journal-watch.ts";
import {
  AppendsInBatches,
  type Durability,
  type JournalStore,
  type LeaseHolder,
  type ListQuery,
  type SeqRange,
  type SessionRow,
  type UnendedJob,
} from "./store.ts";
import type {
  ReplayCacheKey,
  ReplayCachePageRow,
  ReplayCacheRow,
  ReplayCacheUpdate,
  ReplayStatePart,
} from "./replay-cache.ts";
import { deletePgReplayCache, PostgresReplayCache } from "./postgres-replay-cache.ts";
import { claimPgAnswer, deletePgAnswerClaims, pgAnswerClaimOf } from "./postgres-answer-claims.ts";
import type { AnswerClaim } from "./answer-claims.ts";
import { deletePgInbox, sendPgToWriter, takePgFromInbox } from "./postgres-session-inbox.ts";
import type { InboxKind, InboxRequest } from "./session-inbox.ts";
import { pgIdleSessions, pgJournalBytes, pgSessionBytes, pgUnendedJobs } from "./postgres-housekeeping.ts";
import type { Attachment } from "./session-attachments.ts";
import {
  anyPgAttachment,
  deletePgAttachments,
  dropPgAttachment,
  keepPgAttachment,
  livePgAttachment,
} from "./postgres-session-attachments.ts";

export class PostgresJournal extends AppendsInBatches implements JournalStore {
  readonly keepsReplayCache = true;
  readonly target: PostgresTarget;
  readonly #sql: SQL;
  readonly #leases: PostgresLeases;
  readonly #layout: PostgresLayout;
  readonly #reads: PostgresReads;
  readonly #cache: PostgresReplayCache;
  /** Whether an append waits for the server's WAL flush (see the file comment). */
  readonly #strict: boolean;
  readonly #watch: PostgresWatch;

  constructor(url: string, options: { poolSize?: number; durability?: Durability } = {}) {
    super();
    this.target = parsePostgresUrl(url);
    const max = Math.min(options.poolSize ?? DEFAULT_POOL_SIZE, MAX_POOL_SIZE);
    this.#sql = takeEarly(this.target, max) ?? openPool(this.target, max);
    this.#strict = options.durability === "strict";
    this.#watch = new PostgresWatch(this.#sql);
    const guard = <T>(sessionId: string | undefined, run: () => Promise<T>) => this.#guard(sessionId, run);
    this.#layout = new PostgresLayout(this.#sql, guard);
    this.#leases = new PostgresLeases(this.target, this.#sql, this.#layout, guard);
    this.#reads = new PostgresReads(this.#sql, guard, this.#layout);
    this.#cache = new PostgresReplayCache(
      this.#sql,
      guard,
      this.#layout,
      (sessionId) => this.#leases.epochOf(sessionId),
      (sessionId) => this.holder(sessionId),
    );
  }

  async create(row: SessionRow, first: Fact): Promise<StoredFact> {
    await this.#layout.ensure();
    const id = row.sessionId;
    const e = encodeFact(first);
    const owner = this.#leases.owner;
    await this.#leases.created(id, () =>
      this.#guard(id, () => this.#sql.begin((tx) => insertCreated(tx, row, e, owner))),
    );
    return { seq: 1, at: row.createdAt, fact: first };
  }

  async fork(row: SessionRow & { forkOf: { sessionId: string; seq: number } }, last: Fact): Promise<StoredFact> {
    await this.#layout.ensure();
    const id = row.sessionId;
    const e = encodeFact(last);
    await this.#guard(id, () => this.#sql.begin((tx) => insertFork(tx, row, e)));
    return { seq: row.forkOf.seq + 1, at: row.updatedAt, fact: last };
  }

  async importSession(row: SessionRow, records: readonly { fact: Fact; at: string }[]): Promise<void> {
    await this.#layout.ensure();
    const id = row.sessionId;
    const encoded = records.map(({ fact }) => encodeFact(fact));
    await this.#guard(id, () => this.#sql.begin((tx) => insertImported(tx, row, records, encoded)));
  }

  async appendMany(
    sessionId: string,
    firstSeq: number,
    facts: readonly { fact: Fact; at: string }[],
  ): Promise<StoredFact[]> {
    if (facts.length === 0) return [];
    const epoch = await this.#leases.appendEpoch(sessionId);
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
    // One statement, one round trip, one transaction: the epoch check and the writes stand or fall
    // together. The common shapes (no blob, one fact) skip what they do not need: each part costs
    // the server tens of microseconds, and an append is awaited before its update is shown.
    const sql = this.#sql;
    const lease = sql`SELECT 1 FROM verbatim.leases WHERE session_id = ${sessionId} AND epoch = ${epoch} FOR SHARE`;
    const blobInsert =
      blobs.length === 0
        ? sql``
        : sql`blob AS (
        INSERT INTO verbatim.blobs (session_id, sha256, data)
        SELECT ${sessionId}, b.sha256, b.data FROM json_to_recordset(${JSON.stringify(blobs)}::text::json) AS b(sha256 text, data text)
        WHERE EXISTS (SELECT 1 FROM lease)
        ON CONFLICT DO NOTHING
      ),`;
    const one = rows.length === 1 ? rows[0] : undefined;
    const factRows = one
      ? sql`SELECT ${sessionId}, ${one.seq}::integer, ${one.kind}::text, ${one.v}::integer, ${one.at}::text, ${one.body}::text
        WHERE EXISTS (SELECT 1 FROM lease)`
      : sql`SELECT ${sessionId}, f.seq, f.kind, f.v, f.at, f.body FROM json_to_recordset(${JSON.stringify(rows)}::text::json) AS f(seq integer, kind text, v integer, at text, body text)
        WHERE EXISTS (SELECT 1 FROM lease)
        ORDER BY f.seq`;
    const [result] = (await this.#guard(
      sessionId,
      () => sql`
      WITH lease AS (${lease}), ${blobInsert} fact AS (
        INSERT INTO verbatim.facts (session_id, seq, kind, v, at, body) ${factRows}
        RETURNING seq
      ), touched AS (
        UPDATE verbatim.sessions SET updated_at = ${last}, title = COALESCE(${title}::text, title)
        WHERE session_id = ${sessionId} AND EXISTS (SELECT 1 FROM lease)
      )
      SELECT EXISTS (SELECT 1 FROM lease) AS ours, (SELECT count(*) FROM fact)::int AS written,
        (SELECT ${notifyChange(sql, sessionId, "facts", firstSeq + rows.length - 1)}::text FROM lease) AS notified,
        set_config('synchronous_commit', CASE WHEN NOT ${this.#strict}::boolean THEN 'off'
          WHEN current_setting('synchronous_commit') = 'off' THEN 'on' ELSE current_setting('synchronous_commit') END, true) AS commit_mode`,
    )) as { ours: boolean; written: number }[];
    if (!result?.ours) {
      this.#leases.lost(sessionId);
      throw heldElsewhere(sessionId, await this.holder(sessionId));
    }
    return rows.map((row, i) => ({ seq: row.seq, at: row.at, fact: facts[i]!.fact }));
  }

  readPages(sessionId: string, fromSeq = 1): AsyncGenerator<readonly StoredFact[]> {
    return this.#reads.readPages(sessionId, fromSeq);
  }

  info(sessionId: string): Promise<SessionRow | undefined> {
    return this.#reads.info(sessionId);
  }

  list(query: ListQuery): Promise<SessionRow[]> {
    return this.#reads.list(query);
  }

  lastOf(sessionId: string, kinds: readonly FactKind[]): Promise<StoredFact | undefined> {
    return this.#reads.lastOf(sessionId, kinds);
  }

  authority(sessionId: string, upToSeq: number): Promise<StoredFact[]> {
    return this.#reads.authority(sessionId, upToSeq);
  }

  countOf(sessionId: string, kinds: readonly FactKind[], within?: SeqRange): Promise<number> {
    return this.#reads.countOf(sessionId, kinds, within);
  }

  lastSeq(sessionId: string): Promise<number> {
    return this.#reads.lastSeq(sessionId);
  }

  children(sessionId: string): Promise<SessionRow[]> {
    return this.#reads.children(sessionId);
  }

  /** The replay cache (postgres-replay-cache.ts): stored only while this process holds the lease, under its epoch. */
  putReplayCache(sessionId: string, key: ReplayCacheKey, update: ReplayCacheUpdate): Promise<void> {
    return this.#cache.putReplayCache(sessionId, key, update);
  }

  replayCacheKeys(sessionId: string): Promise<ReplayCacheKey[]> {
    return this.#cache.replayCacheKeys(sessionId);
  }

  readReplayCache(sessionId: string, key?: ReplayCacheKey): Promise<ReplayCacheRow[]> {
    return this.#cache.readReplayCache(sessionId, key);
  }

  readReplayPages(
    sessionId: string,
    key: ReplayCacheKey,
    fromSeq?: number,
  ): AsyncIterable<readonly ReplayCachePageRow[]> {
    return this.#cache.readReplayPages(sessionId, key, fromSeq);
  }

  readReplayState(sessionId: string, key: ReplayCacheKey, names?: readonly string[]): Promise<ReplayStatePart[]> {
    return this.#cache.readReplayState(sessionId, key, names);
  }

  replayCacheSize(sessionId: string): Promise<{ cacheBytes: number; factBytes: number }> {
    return this.#cache.replayCacheSize(sessionId);
  }

  /** Deletes a session with its blobs and its subagents' child sessions, all or nothing. */
  async delete(sessionId: string): Promise<boolean> {
    await this.#layout.ensure();
    const deleted = await this.#guard(sessionId, () =>
      this.#sql.begin(async (tx) => {
        const doomed = (
          (await tx`
          WITH RECURSIVE tree(id) AS (
            SELECT ${sessionId}::text UNION SELECT s.session_id FROM verbatim.sessions s JOIN tree ON s.parent_session_id = tree.id
          ) SELECT id FROM tree`) as { id: string }[]
        ).map((r) => r.id);
        for (const id of doomed) {
          const holder = await this.#leases.liveHolder(tx, id);
          if (holder && this.#leases.epochOf(id) === undefined) throw heldElsewhere(id, holder);
        }
        let gone = false;
        for (const id of doomed) {
          await tx`INSERT INTO verbatim.deleting (session_id) VALUES (${id}) ON CONFLICT DO NOTHING`;
          await tx`DELETE FROM verbatim.facts WHERE session_id = ${id}`;
          await tx`DELETE FROM verbatim.blobs WHERE session_id = ${id}`;
          await deletePgReplayCache(tx, id);
          await deletePgAnswerClaims(tx, id);
          await deletePgInbox(tx, id);
          await deletePgAttachments(tx, id);
          await tx`DELETE FROM verbatim.deleting WHERE session_id = ${id}`;
          await tx`SELECT ${notifyChange(tx, id, "any")}::text`;
          await tx`DELETE FROM verbatim.leases WHERE session_id = ${id}`;
          const removed = await tx`DELETE FROM verbatim.sessions WHERE session_id = ${id}`;
          if (id === sessionId) gone = removed.count > 0;
        }
        return gone;
      }),
    );
    await this.#leases.deleted(sessionId);
    return deleted;
  }

  async journalBytes(): Promise<number> {
    if ((await this.#layout.read()) === undefined) return 0;
    return this.#guard(undefined, () => pgJournalBytes(this.#sql));
  }

  async sessionBytes(sessionId: string): Promise<number> {
    if ((await this.#layout.read()) === undefined) return 0;
    return this.#guard(sessionId, () => pgSessionBytes(this.#sql, sessionId));
  }

  async idleSince(before: string): Promise<SessionRow[]> {
    if ((await this.#layout.read()) === undefined) return [];
    return this.#guard(undefined, () => pgIdleSessions(this.#sql, before));
  }

  async unendedJobs(): Promise<UnendedJob[]> {
    if ((await this.#layout.read()) === undefined) return [];
    return this.#guard(undefined, () => pgUnendedJobs(this.#sql));
  }

  acquire(sessionId: string): Promise<void> {
    return this.#leases.acquire(sessionId);
  }

  release(sessionId: string): Promise<void> {
    return this.#leases.release(sessionId);
  }

  holder(sessionId: string): Promise<LeaseHolder | undefined> {
    return this.#leases.holder(sessionId);
  }

  async claimAnswer(sessionId: string, claim: AnswerClaim): Promise<AnswerClaim> {
    await this.#layout.ensure();
    return this.#guard(sessionId, () => claimPgAnswer(this.#sql, sessionId, claim));
  }

  async answerClaimOf(sessionId: string, requestId: string): Promise<AnswerClaim | undefined> {
    if ((await this.#layout.read()) === undefined) return undefined;
    return this.#guard(sessionId, () => pgAnswerClaimOf(this.#sql, sessionId, requestId));
  }

  async sendToWriter(sessionId: string, request: InboxRequest): Promise<void> {
    await this.#layout.ensure();
    await this.#guard(sessionId, () => sendPgToWriter(this.#sql, sessionId, request));
  }

  async takeFromInbox(sessionId: string, kinds: readonly InboxKind[]): Promise<InboxRequest | undefined> {
    if ((await this.#layout.read()) === undefined) return undefined;
    return this.#guard(sessionId, () => takePgFromInbox(this.#sql, sessionId, kinds));
  }

  async keepAttachment(sessionId: string, attachment: Attachment): Promise<void> {
    await this.#layout.ensure();
    await this.#guard(sessionId, () => keepPgAttachment(this.#sql, sessionId, attachment));
  }

  async dropAttachment(sessionId: string, attachmentId: string): Promise<void> {
    if ((await this.#layout.read()) === undefined) return;
    await this.#guard(sessionId, () => dropPgAttachment(this.#sql, sessionId, attachmentId));
  }

  async liveAttachment(sessionId: string, attachmentId: string): Promise<Attachment | undefined> {
    if ((await this.#layout.read()) === undefined) return undefined;
    return this.#guard(sessionId, () => livePgAttachment(this.#sql, sessionId, attachmentId));
  }

  watch(sessionId: string, listener: ChangeListener, options?: WatchOptions): () => void {
    return this.#watch.watch(sessionId, listener, options);
  }

  async controllerAttached(sessionId: string): Promise<boolean> {
    if ((await this.#layout.read()) === undefined) return false;
    return this.#guard(sessionId, () => anyPgAttachment(this.#sql, sessionId));
  }

  warm(): void {
    this.#layout.read().catch(() => undefined);
  }

  async close(): Promise<void> {
    await this.#watch.close();
    await Promise.all([this.#sql.close({ timeout: 1 }), this.#leases.close()]).catch(() => undefined);
  }

  #guard<T>(sessionId: string | undefined, run: () => Promise<T>): Promise<T> {
    return pgGuard(this.target, sessionId, run);
  }
}
