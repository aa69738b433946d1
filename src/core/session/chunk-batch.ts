/**
 * Group commit for streamed text. A provider can hand over chunks faster than one commit per
 * chunk allows, so chunks recorded in a row are committed together, in one transaction, and
 * shown right after that commit: journal first, then send, as for every fact. A chunk waits for
 * its commit only while more chunks keep coming in the same turn of the event loop, and never
 * longer than `WINDOW_MS` of that, nor past the next fact of another kind. A provider that
 * streams at network pace (one event per turn of the event loop) gets a commit per chunk, as
 * before.
 *
 * A chunk that was recorded but not yet committed was never shown: a process killed before its
 * commit loses only what no client saw.
 */
import type { Fact, StoredFact } from "../../journal/facts/index.ts";

/** The longest a chunk waits for its commit while the engine keeps streaming. */
export const WINDOW_MS = 0.25;
/** The most chunks one commit takes. */
export const MAX_BATCH = 16;

export type PendingChunk = { fact: Fact; at: string };

export class ChunkBatch {
  #pending: PendingChunk[] = [];
  #since = 0;
  #scheduled = false;
  #failure: { error: unknown } | undefined;

  /** `commit` appends the chunks in one transaction and shows them; it throws if nothing was written. */
  constructor(private readonly commit: (chunks: PendingChunk[]) => void) {}

  /** Chunks recorded and not yet committed. */
  get size(): number {
    return this.#pending.length;
  }

  /** Records a chunk to commit with the next batch; `seq` is the place it will take. */
  add(fact: Fact, at: string, seq: number): StoredFact {
    if (this.#pending.length === 0) this.#since = performance.now();
    this.#pending.push({ fact, at });
    if (this.#pending.length >= MAX_BATCH) this.flush();
    else this.#schedule();
    return { seq, at, fact };
  }

  /** Commits the pending chunks if the oldest has waited a whole window. */
  flushIfDue(): void {
    if (this.#pending.length > 0 && performance.now() - this.#since >= WINDOW_MS) this.flush();
  }

  /**
   * Commits every pending chunk now. Throws if the commit fails, or if a commit made when the
   * engine yielded failed since (that failure surfaces here, once).
   */
  flush(): void {
    const failure = this.#failure;
    if (failure) {
      this.#failure = undefined;
      throw failure.error;
    }
    if (this.#pending.length === 0) return;
    const chunks = this.#pending;
    this.#pending = [];
    this.commit(chunks);
  }

  /** Commits once the engine yields to the event loop (the end of a burst of chunks). */
  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      if (this.#failure) return;
      try {
        this.flush();
      } catch (error) {
        this.#failure = { error };
      }
    });
  }
}
