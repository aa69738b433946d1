/**
 * What restoring a session folds from its records, apart from the engine: its state, the index a
 * rewind finds its point in, and the last record read. A load folds it while it replays (before
 * the engine is needed, replay-stored.ts); the session's runtime then continues from it
 * (SessionRuntime.adopt) without reading the records again.
 */
import type { StoredFact } from "../../journal/facts/index.ts";
import { SessionStateFold } from "../../replay/state.ts";
import { Located } from "./rewind-index.ts";

export class StoredFold {
  readonly state = new SessionStateFold();
  /** The messages and calls folded from record 1; undefined when a restored state stood for the records before it. */
  messages: Located | undefined = new Located();
  /** The last record folded (or restored whole); 0 before any. */
  seq = 0;

  /** Starts from the state after record `seq`, restored whole by `restore` (the replay cache's), not from its records. */
  restoredTo(seq: number, restore: (state: SessionStateFold) => void): void {
    restore(this.state);
    this.seq = seq;
    this.messages = undefined;
  }

  /** Folds the next record read. */
  absorb(record: StoredFact): void {
    this.seq = record.seq;
    this.state.apply(record.fact, record.seq);
    this.messages?.push(record);
  }

  /**
   * Folds every record of `pages`, handing each to `each` after it is folded; waits for the
   * promise `each` returns, if any, before the next (a load's pace).
   */
  async read(
    pages: AsyncIterable<readonly StoredFact[]>,
    each: (record: StoredFact) => Promise<void> | undefined = () => undefined,
  ): Promise<void> {
    for await (const page of pages) {
      for (const record of page) {
        this.absorb(record);
        const wait = each(record);
        if (wait) await wait;
      }
    }
  }
}
