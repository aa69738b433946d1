/**
 * The rest of a state restored from the replay cache: what a load does not need to answer (the
 * settled calls' cards, hook outcomes, compactions; in a long session most of the state), read
 * once, when the session first projects a fact after the state (a record after the cached run,
 * or a live one: the next prompt's), so that a load answers without it. When the rest fails its
 * checksum or is no longer the state the load opened, the projector is completed from the facts
 * instead. Reads, never writes.
 */
import type { ReplayCacheKey } from "../../journal/replay-cache.ts";
import type { FactStore } from "../../journal/store.ts";
import type { ReplayCacheStore } from "../../journal/replay-cache.ts";
import { Projector } from "../../replay/project.ts";
import { adoptFolded, restoreRest } from "../../replay/replay-state.ts";
import { restOfState, type CachedState } from "./cached-replay.ts";

export class StateRest {
  #done = false;
  #reading: Promise<void> | undefined;

  constructor(
    private readonly store: FactStore & ReplayCacheStore,
    private readonly sessionId: string,
    private readonly key: ReplayCacheKey,
    private readonly state: CachedState,
    private readonly projector: Projector,
  ) {}

  /**
   * Undefined once the rest is in; else a promise that resolves once it is (the read starts at
   * the first call). A read that fails (the journal unreachable) rejects, and the next call reads again.
   */
  ready(): Promise<void> | undefined {
    if (this.#done) return undefined;
    this.#reading ??= this.#read().then(
      () => {
        this.#done = true;
      },
      (error: unknown) => {
        this.#reading = undefined;
        throw error;
      },
    );
    return this.#reading;
  }

  async #read(): Promise<void> {
    const parts = await restOfState(this.store, this.sessionId, this.key, this.state);
    if (parts) return restoreRest(parts, this.projector);
    // The cards, outcomes and compactions as a replay of the facts up to the opened state has them.
    const fromFacts = new Projector({ ...this.projector.context, replay: true });
    const upTo = this.state.head.toSeq;
    pages: for await (const page of this.store.readPages(this.sessionId, 1)) {
      for (const record of page) {
        if (record.seq > upTo) break pages;
        fromFacts.apply(record);
      }
    }
    adoptFolded(this.projector, fromFacts);
  }
}
