/**
 * Group commit for streamed text: when chunks are committed. A provider can hand over chunks
 * faster than one commit per chunk allows, so chunks recorded in a row are committed together, in
 * one transaction, and shown right after that commit: journal first, then send, as for every
 * fact. A chunk waits for its commit only while more chunks keep coming in the same turn of the
 * event loop, and never longer than `WINDOW_MS` of that, nor past the next fact of another kind.
 * A provider that streams at network pace (one event per turn of the event loop) gets a commit
 * per chunk, as before.
 *
 * A chunk that was recorded but not yet committed was never shown: a process killed before its
 * commit loses only what no client saw. How a batch is committed is the journal writer's
 * (journal-writer.ts); this holds the chunks and says when.
 */
import type { Fact } from "../../journal/facts/index.ts";

/** The longest a chunk waits for its commit while the engine keeps streaming. */
export const WINDOW_MS = 0.25;
/** The most chunks one commit takes. */
export const MAX_BATCH = 16;

export type PendingChunk = { fact: Fact; at: string };

export class ChunkBatch {
  #pending: PendingChunk[] = [];
  #since = 0;
  #scheduled = false;

  /** `due` is handed each batch that is to be committed now (a full one, or at the end of a burst). */
  constructor(private readonly due: (chunks: PendingChunk[]) => void) {}

  /** Chunks recorded and not yet handed over. */
  get size(): number {
    return this.#pending.length;
  }

  /** Holds a chunk for the next batch. */
  add(fact: Fact, at: string): void {
    if (this.#pending.length === 0) this.#since = performance.now();
    this.#pending.push({ fact, at });
    if (this.#pending.length >= MAX_BATCH) this.due(this.take());
    else this.#schedule();
  }

  /** Hands over the pending chunks if the oldest has waited a whole window. */
  flushIfDue(): void {
    if (this.#pending.length > 0 && performance.now() - this.#since >= WINDOW_MS) this.due(this.take());
  }

  /** The pending chunks (perhaps none), which are no longer pending. */
  take(): PendingChunk[] {
    const chunks = this.#pending;
    if (chunks.length > 0) this.#pending = [];
    return chunks;
  }

  /** Hands the batch over once the engine yields to the event loop (the end of a burst of chunks). */
  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      const chunks = this.take();
      if (chunks.length > 0) this.due(chunks);
    });
  }
}
