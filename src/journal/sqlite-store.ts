/**
 * The journal in SQLite (bun:sqlite, WAL). One database holds every session; one process at a
 * time writes a session (its lease), and every append names the sequence number it expects.
 * A process that only loads opens the database read-only.
 */
import type { Database } from "bun:sqlite";
import { encodeFact, type EncodedFact } from "./codec.ts";
import type { Fact, FactKind, StoredFact } from "./facts/index.ts";
import { ensurePrivateFile } from "./private-files.ts";
import { currentProcess, type ProcessIdentity } from "./process-identity.ts";
import { openForReading, openForWriting } from "./sqlite-open.ts";
import { guard } from "./sqlite-errors.ts";
import {
  childSessions,
  countFactsOf,
  lastSeqOf,
  lastFactOf,
  authorityFacts,
  listSessions,
  readFacts,
  sessionInfo,
  type Row,
} from "./sqlite-reads.ts";
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
import { cacheKeys, putUpdate, readParts, readRows, rowPages, sizes } from "./sqlite-replay-cache.ts";
import { warmLoadReads } from "./sqlite-warm-reads.ts";
import type { AnswerClaim } from "./answer-claims.ts";
import type { InboxKind, InboxRequest } from "./session-inbox.ts";
import {
  anyAttachmentIn,
  claimAnswerIn,
  claimOf,
  dropAttachmentIn,
  keepAttachmentIn,
  liveAttachmentIn,
  sendToWriterIn,
  takeFromInboxIn,
} from "./sqlite-side-tables.ts";
import type { Attachment } from "./session-attachments.ts";
import type { ChangeListener, WatchOptions } from "./journal-watch.ts";
import { SqliteWatch } from "./sqlite-watch.ts";
import { acquireIn, checkHeld, deleteTreeIn, holderIn, releaseIn } from "./sqlite-leases.ts";
import { WalCheckpointer, type CheckpointPolicy } from "./wal-checkpointer.ts";
import { Writer } from "./sqlite-writer.ts";
import { createIn, forkIn, importIn } from "./sqlite-new-sessions.ts";
import {
  idleSessions,
  sqliteJournalBytes,
  sqliteSessionBytes,
  sqliteUnendedJobs,
  vacuum,
} from "./sqlite-housekeeping.ts";

/** Records per page of a read: enough to pay for a page's await, few enough to hold. */
const PAGE_SIZE = 256;

export class SqliteJournal extends AppendsInBatches implements JournalStore {
  readonly keepsReplayCache = true;
  #rw: Writer | undefined;
  #ro: Database | undefined;
  readonly #owner: ProcessIdentity = currentProcess();
  readonly #watch = new SqliteWatch(() => this.#reader());

  /** `checkpoints`: when the WAL is checkpointed while this process writes (see wal-checkpointer.ts). */
  constructor(
    readonly path: string,
    private readonly durability: Durability = "normal",
    private readonly options: { checkpoints?: Partial<CheckpointPolicy> } = {},
  ) {
    super();
  }

  async create(row: SessionRow, first: Fact): Promise<StoredFact> {
    return createIn(this.#writer(), this.#owner, row, first);
  }

  async fork(row: SessionRow & { forkOf: { sessionId: string; seq: number } }, last: Fact): Promise<StoredFact> {
    return forkIn(this.#writer(), row, last);
  }

  async importSession(row: SessionRow, records: readonly { fact: Fact; at: string }[]): Promise<void> {
    importIn(this.#writer(), row, records);
  }

  async appendMany(
    sessionId: string,
    firstSeq: number,
    facts: readonly { fact: Fact; at: string }[],
  ): Promise<StoredFact[]> {
    const records = this.#appendMany(sessionId, firstSeq, facts);
    if (records.length > 0) this.#changed(sessionId, "facts", firstSeq + records.length - 1);
    return records;
  }

  #appendMany(sessionId: string, firstSeq: number, facts: readonly { fact: Fact; at: string }[]): StoredFact[] {
    const w = this.#writer();
    const encoded = facts.map(({ fact }) => encodeFact(fact));
    const records = guard(sessionId, () =>
      w.transaction(() => {
        checkHeld(w, sessionId, this.#owner);
        const records: StoredFact[] = [];
        let title: string | undefined;
        for (let i = 0; i < facts.length; i++) {
          const { fact, at } = facts[i] as { fact: Fact; at: string };
          const e = encoded[i] as EncodedFact;
          for (const [hash, data] of e.blobs) w.insertBlob.run(sessionId, hash, data);
          w.insertFact.run(sessionId, firstSeq + i, e.kind, e.v, at, e.body);
          if (fact.kind === "title_set") title = fact.title;
          records.push({ seq: firstSeq + i, at, fact });
        }
        const last = records[records.length - 1];
        if (last) {
          if (title !== undefined) w.touchTitle.run(last.at, title, sessionId);
          else w.touch.run(last.at, sessionId);
        }
        return records;
      }),
    );
    let bytes = 0;
    for (const e of encoded) bytes += e.body.length;
    // A turn's end is when a large log is folded (see wal-checkpointer.ts).
    const endsTurn = facts.some(({ fact }) => fact.kind === "turn_ended");
    w.checkpoints.committed(bytes, endsTurn);
    return records;
  }

  /**
   * Each page is read whole by a statement of its own, finished before the page is yielded: a
   * statement left open while the caller awaits (the replay-cache writer does, between pages)
   * would hold this connection's read of the log, and the writer's checkpoint of a large log
   * could not run (see wal-checkpointer.ts).
   */
  async *readPages(sessionId: string, fromSeq = 1): AsyncGenerator<readonly StoredFact[]> {
    for (let from = fromSeq; ; ) {
      const page: StoredFact[] = [];
      for (const record of this.read(sessionId, from)) {
        page.push(record);
        if (page.length === PAGE_SIZE) break;
      }
      if (page.length > 0) yield page;
      if (page.length < PAGE_SIZE) return;
      from += PAGE_SIZE;
    }
  }

  /** `readPages` one record at a time, synchronously (SQLite reads in this thread). */
  read(sessionId: string, fromSeq = 1): Generator<StoredFact> {
    return readFacts(this.#reader(), sessionId, fromSeq);
  }

  async info(sessionId: string): Promise<SessionRow | undefined> {
    return sessionInfo(this.#reader(), sessionId);
  }

  async list(query: ListQuery): Promise<SessionRow[]> {
    return listSessions(this.#reader(), query);
  }

  async lastOf(sessionId: string, kinds: readonly FactKind[]): Promise<StoredFact | undefined> {
    return lastFactOf(this.#reader(), sessionId, kinds);
  }

  async authority(sessionId: string, upToSeq: number): Promise<StoredFact[]> {
    return authorityFacts(this.#reader(), sessionId, upToSeq);
  }

  async countOf(sessionId: string, kinds: readonly FactKind[], within?: SeqRange): Promise<number> {
    return countFactsOf(this.#reader(), sessionId, kinds, within);
  }

  async lastSeq(sessionId: string): Promise<number> {
    return lastSeqOf(this.#reader(), sessionId);
  }

  async children(sessionId: string): Promise<SessionRow[]> {
    return childSessions(this.#reader(), sessionId);
  }

  /** Deletes a session with its blobs and its subagents' child sessions, all or nothing. */
  async delete(sessionId: string): Promise<boolean> {
    const w = this.#writer();
    const deleted = guard(sessionId, () => deleteTreeIn(w, sessionId, this.#owner));
    this.#changed(sessionId, "any");
    return deleted;
  }

  async journalBytes(): Promise<number> {
    return sqliteJournalBytes(this.path);
  }

  async sessionBytes(sessionId: string): Promise<number> {
    return sqliteSessionBytes(this.#reader(), sessionId);
  }

  async idleSince(before: string): Promise<SessionRow[]> {
    return idleSessions(this.#reader(), before);
  }

  async unendedJobs(): Promise<UnendedJob[]> {
    return sqliteUnendedJobs(this.#reader());
  }

  async reclaimSpace(): Promise<void> {
    vacuum(this.#writer().db);
  }

  async acquire(sessionId: string): Promise<void> {
    const w = this.#writer();
    guard(sessionId, () => acquireIn(w, sessionId, this.#owner));
  }

  async release(sessionId: string): Promise<void> {
    const w = this.#rw;
    if (w) guard(sessionId, () => releaseIn(w, sessionId, this.#owner));
  }

  async claimAnswer(sessionId: string, claim: AnswerClaim): Promise<AnswerClaim> {
    const w = this.#writer();
    const held = guard(sessionId, () => claimAnswerIn(w.db, sessionId, claim));
    this.#changed(sessionId, "rows");
    return held;
  }

  async answerClaimOf(sessionId: string, requestId: string): Promise<AnswerClaim | undefined> {
    const db = this.#reader();
    return db ? guard(sessionId, () => claimOf(db, sessionId, requestId)) : undefined;
  }

  async sendToWriter(sessionId: string, request: InboxRequest): Promise<void> {
    const w = this.#writer();
    guard(sessionId, () => sendToWriterIn(w.db, sessionId, request));
    this.#changed(sessionId, "rows");
  }

  async takeFromInbox(sessionId: string, kinds: readonly InboxKind[]): Promise<InboxRequest | undefined> {
    const w = this.#writer();
    return guard(sessionId, () => takeFromInboxIn(w.db, sessionId, kinds));
  }

  async keepAttachment(sessionId: string, attachment: Attachment): Promise<void> {
    const w = this.#writer();
    guard(sessionId, () => keepAttachmentIn(w.db, sessionId, attachment));
    this.#changed(sessionId, "rows");
  }

  async dropAttachment(sessionId: string, attachmentId: string): Promise<void> {
    const w = this.#writer();
    guard(sessionId, () => dropAttachmentIn(w.db, sessionId, attachmentId));
    this.#changed(sessionId, "rows");
  }

  async liveAttachment(sessionId: string, attachmentId: string): Promise<Attachment | undefined> {
    const db = this.#reader();
    return db ? guard(sessionId, () => liveAttachmentIn(db, sessionId, attachmentId)) : undefined;
  }

  async holder(sessionId: string): Promise<LeaseHolder | undefined> {
    const db = this.#reader();
    return db ? guard(sessionId, () => holderIn(db, sessionId)) : undefined;
  }

  watch(sessionId: string, listener: ChangeListener, options?: WatchOptions): () => void {
    return this.#watch.watch(sessionId, listener, options);
  }

  async controllerAttached(sessionId: string): Promise<boolean> {
    const db = this.#reader();
    return db ? guard(sessionId, () => anyAttachmentIn(db, sessionId)) : false;
  }

  warm(): void {
    try {
      const db = this.#reader();
      if (db) warmLoadReads(db);
    } catch {
      // Left for the first read, which opens the database again and reports what is wrong.
    }
  }

  /** True once this process opened the journal for writing (loading alone never does). */
  get writing(): boolean {
    return this.#rw !== undefined;
  }

  async putReplayCache(sessionId: string, key: ReplayCacheKey, update: ReplayCacheUpdate): Promise<void> {
    const w = this.#writer();
    guard(sessionId, () =>
      w.transaction(() => {
        checkHeld(w, sessionId, this.#owner);
        putUpdate(w.db, sessionId, key, update);
      }),
    );
  }

  async readReplayCache(sessionId: string, key?: ReplayCacheKey): Promise<ReplayCacheRow[]> {
    const db = this.#reader();
    return db ? guard(sessionId, () => readRows(db, sessionId, key)) : [];
  }

  async *readReplayPages(sessionId: string, key: ReplayCacheKey, fromSeq = 1): AsyncGenerator<ReplayCachePageRow[]> {
    const db = this.#reader();
    if (db) yield* rowPages(db, sessionId, key, fromSeq);
  }

  async readReplayState(sessionId: string, key: ReplayCacheKey, names?: readonly string[]): Promise<ReplayStatePart[]> {
    const db = this.#reader();
    return db ? guard(sessionId, () => readParts(db, sessionId, key, names)) : [];
  }

  async replayCacheKeys(sessionId: string): Promise<ReplayCacheKey[]> {
    const db = this.#reader();
    return db ? guard(sessionId, () => cacheKeys(db, sessionId)) : [];
  }

  async replayCacheSize(sessionId: string): Promise<{ cacheBytes: number; factBytes: number }> {
    const db = this.#reader();
    return db ? guard(sessionId, () => sizes(db, sessionId)) : { cacheBytes: 0, factBytes: 0 };
  }

  /** The raw rows of a session, for checking that loading never writes. */
  dump(sessionId: string): Row[] {
    const db = this.#reader();
    if (!db) return [];
    return db
      .query<Row, [string]>("SELECT seq, kind, v, at, body FROM facts WHERE session_id = ? ORDER BY seq")
      .all(sessionId);
  }

  async close(): Promise<void> {
    this.closeNow();
  }

  /** `close`, synchronously (for exit handlers). */
  closeNow(): void {
    this.#watch.close();
    this.#rw?.checkpoints.close();
    this.#rw?.db.close();
    this.#ro?.close();
    this.#rw = undefined;
    this.#ro = undefined;
  }

  /** This process's own commit, which its read connection's data_version does not count (sqlite-watch.ts). */
  #changed(sessionId: string, kind: "facts" | "rows" | "any", position?: number): void {
    this.#watch.watchers.emit(sessionId, { kind, ...(position === undefined ? {} : { position }) });
  }

  /** A read connection: the writer's if this process writes, else a read-only one. */
  #reader(): Database | undefined {
    if (this.#rw) return this.#rw.db;
    this.#ro ??= openForReading(this.path);
    return this.#ro;
  }

  #writer(): Writer {
    if (this.#rw) return this.#rw;
    const { db, created } = openForWriting(this.path, this.durability === "strict" ? "FULL" : "NORMAL");
    // Checkpoints run on a worker thread; only a large log is folded on this connection (see wal-checkpointer.ts).
    db.run("PRAGMA wal_autocheckpoint = 0");
    // SQLite gives its own files the journal's mode; those of a journal verbatim made are private.
    if (created) for (const suffix of ["-wal", "-shm"]) ensurePrivateFile(this.path + suffix);
    this.#ro?.close();
    this.#ro = undefined;
    this.#rw = new Writer(db, new WalCheckpointer(this.path, this.options.checkpoints));
    return this.#rw;
  }
}
