/**
 * A session's journal writer: the one way a running session's facts reach the journal. It takes
 * the session's lease before this process first writes, numbers the facts, commits streamed
 * chunks in groups (chunk-batch.ts), and hands each record on (folded, then shown) only once it
 * is committed: journal first, then send.
 *
 * Writes are serialized. Facts are committed, and shown, in the order they were recorded, whether
 * or not the caller waits for its promise; a write nobody waits for (a chunk batch, a background
 * notice) that fails makes the next write fail with its error, so a failure is never lost.
 *
 * A journal that cannot be reached (its server went away) is lost: the chunks waiting for their
 * commit are dropped (they were never shown), and every write fails at once, without trying the
 * store, until `reconnect`. Then, and only then, a fact may be shown before it is recorded
 * (`showUnrecorded`: the notice that says so); it is recorded first at the next write.
 *
 * A journal that does not end where this writer's numbering does is out of step: a PostgreSQL
 * server that crashed lost the appends it had acknowledged but not yet written (asynchronous
 * commit), or an append reported failed had committed. A write that meets it (`stale_write`)
 * fails, and so does every write after it, until `reconnect`; the first write after that (and
 * after every `reconnect`, which the session calls between turns) checks where the journal ends
 * and, if it moved, folds the session again from the journal as it is and numbers on from its end:
 * the writer goes on from what was committed, never from what it lost. Its lease is kept, so a
 * real second writer is still fenced off by the store.
 */
import { JournalError } from "../../journal/errors.ts";
import { log } from "../../shared/log.ts";
import type { Fact, StoredFact } from "../../journal/facts/index.ts";
import type { JournalStore, SessionRow } from "../../journal/store.ts";
import { ChunkBatch, type PendingChunk } from "./chunk-batch.ts";

/** What the writer hands each committed record to. */
export type WriterHost = {
  /** Folds a record into the session's state (committed here, or written by another process and caught up). */
  absorb(record: StoredFact): void;
  /** Forgets everything folded: the session is folded again from the journal (see `JournalWriter`). */
  reset(): void;
  /** Shows a record (after it is folded); a promise when showing it means writing elsewhere first (a subagent's progress on its parent's card). */
  publish(record: StoredFact): Promise<void> | void;
  /** The fact naming this process as the session's holder (`session_held`): the first it appends after taking the lease. */
  held?(): Fact;
};

const RESOLVED: Promise<void> = Promise.resolve();
const ignore = () => undefined;

export class JournalWriter {
  #nextSeq = 1;
  #leased = false;
  /** The last write in line: every write runs after the one before it settles. */
  #chain: Promise<void> = RESOLVED;
  /** Writes in line that have not started: while there are any, a chunk takes its place in line too. */
  #waiting = 0;
  #failure: { error: unknown } | undefined;
  /** The journal could not be reached: writes fail with this until `reconnect`. */
  #lost: JournalError | undefined;
  /** The journal did not end where this writer's numbering did: writes fail with this until `reconnect`. */
  #outOfStep: JournalError | undefined;
  /** The next write first checks where the journal ends (set by `reconnect`). */
  #checkEnd = false;
  /** Facts shown while the journal could not be reached, with their times: recorded first at the next write. */
  readonly #unrecorded: { fact: Fact; at: string }[] = [];
  /** Facts that happened while this process did not write the session (after a load): recorded at its first write. */
  readonly #queued: Fact[] = [];
  readonly #chunks = new ChunkBatch((chunks) => this.#commitInBackground(chunks));

  constructor(
    readonly sessionId: string,
    private readonly store: JournalStore,
    private readonly host: WriterHost,
  ) {}

  /** True once this process holds the session's lease (it created the session or has written it). */
  get leased(): boolean {
    return this.#leased;
  }

  /** Records a new session with its first fact, taking its lease; the record is folded, then shown. */
  async create(row: SessionRow, first: Fact): Promise<void> {
    const record = await this.store.create(row, first);
    this.#leased = true;
    await this.#take(record);
  }

  /** Continues after record `seq`, restored without reading the records up to it (the session's state was restored whole). */
  restoredTo(seq: number): void {
    this.#nextSeq = seq + 1;
  }

  /**
   * Folds the records read from the journal while restoring the session (nothing is shown or
   * written), handing each to `each` once folded and waiting on what it returns (a load's pace).
   */
  async restoredFrom(
    pages: AsyncIterable<readonly StoredFact[]>,
    each: (record: StoredFact) => Promise<void> | undefined,
  ): Promise<void> {
    for await (const page of pages) {
      for (const record of page) {
        this.#nextSeq = record.seq + 1;
        this.host.absorb(record);
        const wait = each(record);
        if (wait) await wait;
      }
    }
  }

  /**
   * Appends a fact (taking the lease first if this process has not), then folds and shows it;
   * resolves once that is done. A streamed chunk resolves once it joins its batch: it is committed,
   * then shown, with the chunks that follow it (group commit), and always before any later fact.
   */
  record(fact: Fact): Promise<void> {
    const at = new Date().toISOString();
    if (fact.kind === "message_chunk" && this.#leased && this.#waiting === 0) {
      if (this.#lost) return Promise.reject(this.#lost);
      if (this.#outOfStep) return Promise.reject(this.#outOfStep);
      const failure = this.#takeFailure();
      if (failure) return Promise.reject(failure.error);
      this.#chunks.add(fact, at);
      return RESOLVED;
    }
    this.#waiting++;
    return this.#enqueue(async () => {
      this.#waiting--;
      await this.#lease();
      const failure = this.#takeFailure();
      if (failure) throw failure.error;
      if (fact.kind === "message_chunk") return this.#chunks.add(fact, at);
      const chunks = this.#chunks.take();
      if (chunks.length > 0) await this.#commit(chunks);
      const shown = this.#take(await this.#write(() => this.store.append(this.sessionId, this.#nextSeq, fact, at)));
      if (shown) await shown;
    });
  }

  /** Records a fact without waiting: its failure, if any, is the next write's. */
  recordInBackground(fact: Fact): void {
    this.record(fact).catch((error: unknown) => this.fail(error));
  }

  /** Records a fact now if this process writes the session, else at its first write (loading never writes). */
  recordSoon(fact: Fact): void {
    if (this.#leased) this.recordInBackground(fact);
    else this.#queued.push(fact);
  }

  /** Takes the lease now (see `record`), catching up first on what another process wrote. */
  ensureLease(): Promise<void> {
    this.#waiting++;
    return this.#enqueue(async () => {
      this.#waiting--;
      await this.#lease();
    });
  }

  /** Commits the chunk batch if it waited a whole window (the engine calls it between events). */
  pace(): void {
    this.#chunks.flushIfDue();
  }

  /**
   * Commits every pending chunk and waits for every write recorded so far. Rejects with the
   * failure of a write nobody waited for, if one failed since.
   */
  flush(): Promise<void> {
    this.#waiting++;
    return this.#enqueue(async () => {
      this.#waiting--;
      const chunks = this.#chunks.take();
      if (chunks.length > 0) await this.#commit(chunks);
      else if (this.#unrecorded.length > 0) await this.#lease();
      const failure = this.#takeFailure();
      if (failure) throw failure.error;
    });
  }

  /** Runs `run` between writes: none starts until it settles. */
  between<T>(run: () => Promise<T>): Promise<T> {
    this.#waiting++;
    return this.#enqueue(async () => {
      this.#waiting--;
      return run();
    });
  }

  /** True while the journal cannot be reached (see `reconnect`). */
  get lost(): boolean {
    return this.#lost !== undefined;
  }

  /**
   * While the journal cannot be reached: shows `fact` now, and records it (with this time) first
   * at the next write after `reconnect`. It is folded once recorded; a process that exits before
   * then never records it, and a reload shows everything up to it.
   */
  showUnrecorded(fact: Fact): Promise<void> | void {
    if (!this.#lost) throw new Error("showUnrecorded: the journal is not lost");
    const at = new Date().toISOString();
    this.#unrecorded.push({ fact, at });
    return this.host.publish({ seq: this.#nextSeq + this.#unrecorded.length - 1, at, fact });
  }

  /**
   * Lets writes try the journal again (the next one records what was shown unrecorded first). The
   * session calls it between turns, where nothing is half written: the next write first checks
   * where the journal ends, and goes on from there (see the class comment).
   */
  reconnect(): void {
    this.#checkEnd = true;
    const failed = this.#failure?.error;
    if (failed instanceof JournalError && (failed.code === "unreachable" || failed === this.#outOfStep)) {
      this.#failure = undefined;
    }
    this.#lost = undefined;
    this.#outOfStep = undefined;
  }

  /** Gives up the lease once every write in line has settled. */
  async release(): Promise<void> {
    await this.#chain;
    if (!this.#leased) return;
    this.#leased = false;
    await this.store.release(this.sessionId);
  }

  /**
   * Gets ready to write: takes the session's lease if this process has not (`#acquire`), then
   * records what was shown while the journal could not be reached, if anything was.
   */
  async #lease(): Promise<void> {
    if (this.#lost) throw this.#lost;
    if (this.#outOfStep) throw this.#outOfStep;
    if (!this.#leased) await this.#write(() => this.#acquire());
    else if (this.#checkEnd) await this.#write(() => this.#goOnFromEnd());
    this.#checkEnd = false;
    if (this.#unrecorded.length > 0) await this.#write(() => this.#recordUnrecorded());
  }

  /**
   * Goes on from where the journal ends, if that is not where this writer's numbering does (see
   * the class comment): the session is folded again from the journal; records this process never
   * showed (an append reported failed that had committed) are shown now, as a load would show them.
   */
  async #goOnFromEnd(): Promise<void> {
    const end = await this.store.lastSeq(this.sessionId);
    const shownUpTo = this.#nextSeq - 1;
    if (end === shownUpTo) return;
    log.warn(
      `session ${this.sessionId}: the journal ends at record ${end}, but this process had written up to record ${shownUpTo} ` +
        "(its server may have lost its latest appends in a crash); going on from what the journal holds",
    );
    this.host.reset();
    this.#nextSeq = 1;
    for await (const page of this.store.readPages(this.sessionId)) {
      for (const record of page) {
        if (record.seq > shownUpTo) {
          const shown = this.#take(record);
          if (shown) await shown;
          continue;
        }
        this.#nextSeq = record.seq + 1;
        this.host.absorb(record);
      }
    }
  }

  /**
   * Takes the session's lease before this process first writes it. Another process may have
   * written the session since it was loaded here: its facts are folded and shown first, so this
   * process continues from the journal as it is, never from a stale copy. Then it records who
   * holds the session now (the host's `held`), before anything else it writes.
   */
  async #acquire(): Promise<void> {
    await this.store.acquire(this.sessionId);
    this.#leased = true;
    for await (const page of this.store.readPages(this.sessionId, this.#nextSeq)) {
      for (const record of page) await this.#take(record);
    }
    const held = this.host.held?.();
    for (const fact of [...(held ? [held] : []), ...this.#queued.splice(0)]) {
      await this.#take(await this.store.append(this.sessionId, this.#nextSeq, fact, new Date().toISOString()));
    }
  }

  /** The facts shown while the journal could not be reached, recorded (they were shown already). */
  async #recordUnrecorded(): Promise<void> {
    const records = await this.store.appendMany(this.sessionId, this.#nextSeq, this.#unrecorded);
    this.#unrecorded.length = 0;
    for (const record of records) {
      this.#nextSeq = record.seq + 1;
      this.host.absorb(record);
    }
  }

  /** Runs a store call; a journal that cannot be reached is lost (see the class comment). */
  async #write<T>(run: () => Promise<T>): Promise<T> {
    if (this.#lost) throw this.#lost;
    try {
      return await run();
    } catch (error) {
      if (error instanceof JournalError && error.code === "unreachable") {
        this.#lost = error;
        this.#chunks.take();
      }
      if (error instanceof JournalError && error.code === "stale_write" && this.#leased) {
        // This process holds the lease (the store fences any other writer): its numbering is not the journal's.
        this.#outOfStep = new JournalError(
          "stale_write",
          `session ${this.sessionId}: the journal does not end at record ${this.#nextSeq - 1}, where this process's writes did ` +
            "(its server may have lost its latest appends in a crash); nothing more of this turn was recorded, and the next prompt goes on from what the journal holds",
          error.details,
        );
        this.#chunks.take();
        throw this.#outOfStep;
      }
      throw error;
    }
  }

  #commitInBackground(chunks: PendingChunk[]): void {
    this.#enqueue(() => this.#commit(chunks)).catch((error: unknown) => this.fail(error));
  }

  async #commit(chunks: PendingChunk[]): Promise<void> {
    await this.#lease();
    const records = await this.#write(() => this.store.appendMany(this.sessionId, this.#nextSeq, chunks));
    for (const record of records) {
      // Most records are shown at once: only a promise is waited for (a wait costs a turn of the microtask queue).
      const shown = this.#take(record);
      if (shown) await shown;
    }
  }

  #take(record: StoredFact): Promise<void> | void {
    this.#nextSeq = record.seq + 1;
    this.host.absorb(record);
    return this.host.publish(record);
  }

  #enqueue<T>(run: () => Promise<T>): Promise<T> {
    const result = this.#chain.then(run);
    this.#chain = result.then(ignore, ignore);
    return result;
  }

  /** Keeps the failure of a write nobody waited for: the next write fails with it. */
  fail(error: unknown): void {
    this.#failure ??= { error };
  }

  #takeFailure(): { error: unknown } | undefined {
    const failure = this.#failure;
    this.#failure = undefined;
    return failure;
  }
}
