/**
 * Keeps a session's replay cache as it is written live: at each turn's end (right after its
 * `turn_ended` is committed), the writer holding the lease stores the turn's row and the parts of
 * the state the turn changed, computed from the turn's records as stored, by a replay projection
 * of its own (the live one is not a replay's). The first turn that ends in a process starts that
 * projection from the stored state if it is whole (a session reopened with its cache), else
 * replays the session's journal from record 1 and stores every finished turn's row and the whole
 * state: that fills in turns recorded before the cache existed, or by a client of other
 * capabilities, once per session per process. Failures are logged and lose only the cache: a load
 * then replays from the facts.
 */
import type { StoredFact } from "../../journal/facts/index.ts";
import { partWithChecksum, withChecksum, type ReplayCacheRow } from "../../journal/replay-cache.ts";
import type { LeaseStore, FactStore } from "../../journal/store.ts";
import type { ReplayCacheStore } from "../../journal/replay-cache.ts";
import { log } from "../../shared/log.ts";
import type { StatePart } from "../../replay/replay-state.ts";
import { cacheKey, staleKeys, type ReplayCapabilities } from "../../replay/cache-key.ts";
import { ReplaySegments } from "../../replay/replay-segments.ts";
import { retractionOf, type Retraction } from "../../replay/retraction.ts";
import { lastRetraction } from "./rewind-lookup.ts";
import { wholeState } from "./cached-replay.ts";
import { sendCachedRun } from "./cached-run.ts";
import type { ReplaySeal } from "./replay-seal.ts";
import { yieldToEventLoop } from "../../shared/event-loop.ts";

/** `VERBATIM_REPLAY_CACHE=off`: neither store nor use the replay cache (loads replay every fact). */
export function replayCacheEnabled(env: Record<string, string | undefined> = process.env): boolean {
  return env.VERBATIM_REPLAY_CACHE !== "off";
}

export class ReplayCacheWriter {
  /** The replay projection, folded up to its `nextSeq`; undefined until the first turn's end here. */
  #segments: ReplaySegments | undefined;
  /** What the session's last rewind took back: read from the journal when the writer starts, then observed. */
  #retraction: { known: Retraction | undefined } | undefined;
  #work: Promise<void> = Promise.resolve();
  /**
   * Whether the next store also drops the keys rows were stored under before the session's last
   * rewind (replay/cache-key.ts `staleKeys`): at the writer's first store (a process that rewound
   * may have ended before its own), and after each rewind.
   */
  #dropDue = true;

  constructor(
    private readonly store: FactStore & LeaseStore & ReplayCacheStore,
    readonly sessionId: string,
    private readonly capabilities: ReplayCapabilities,
    /**
     * This user's seal for the rows stored (replay-seal.ts): without it, or without a usable key,
     * nothing is stored, since a load uses only rows this user's key sealed.
     */
    private readonly seal?: ReplaySeal,
  ) {}

  /** Takes each record as it is published. Costs nothing but at a turn's end, and then off the event's path. */
  observe(record: StoredFact): void {
    const rewound = record.fact.kind === "session_rewound";
    if (!rewound && record.fact.kind !== "turn_ended") return;
    const upTo = record.seq;
    this.#work = this.#work
      .then(() => {
        // After a rewind every row and part is stored again, under its key (replay/cache-key.ts), from record 1.
        if (rewound) {
          this.#retraction = { known: retractionOf(record) };
          this.#segments = undefined;
          this.#dropDue = true;
        }
        return this.#store(upTo);
      })
      .catch((error: unknown) => {
        log.warn(`could not store the replay cache of session ${this.sessionId}`, error);
        this.#segments = undefined;
      });
  }

  /** Resolves once every row due so far has been stored (or given up). */
  settled(): Promise<void> {
    return this.#work;
  }

  /**
   * Reads back the records the projection has not folded yet, up to `upTo`, and stores the rows
   * they end with the state parts they changed. The records are read as a load reads them
   * (decoded from the store, not the objects the live path appended), so a row is what a replay
   * of the facts sends, byte for byte.
   */
  async #store(upTo: number): Promise<void> {
    if (!this.seal?.usable()) return;
    // The turn's last updates and its response go out first: this work waits for a turn of the
    // event loop, and takes one between pages, so it never holds up what the session sends.
    await yieldToEventLoop();
    const segments = this.#segments ?? (await this.#start());
    this.#segments = segments;
    const rows: ReplayCacheRow[] = [];
    // Parts by name: a part changed by several turns read here is stored once, as it stands last.
    const parts = new Map<string, StatePart>();
    for await (const page of this.store.readPages(this.sessionId, segments.nextSeq)) {
      await yieldToEventLoop();
      for (const record of page) {
        if (record.seq > upTo) break;
        const turn = segments.push(record);
        if (!turn) continue;
        const row = withChecksum(turn.row);
        rows.push(this.seal.seal(this.sessionId, row));
        for (const part of turn.parts) parts.set(part.part, part);
      }
      if (segments.nextSeq > upTo) break;
    }
    if (rows.length === 0) return;
    const rewoundAt = this.#retraction?.known?.rewoundAt;
    const key = cacheKey(this.capabilities, rewoundAt);
    // What a rewind left under the keys before it goes with this writer's first store under its own.
    const drop = this.#dropDue ? staleKeys(await this.store.replayCacheKeys(this.sessionId), rewoundAt) : [];
    await this.store.putReplayCache(this.sessionId, key, {
      rows,
      parts: [...parts.values()].map((p) => partWithChecksum(key, p)),
      ...(drop.length > 0 ? { drop } : {}),
    });
    this.#dropDue = false;
  }

  /** The projection to continue: from the stored state when it is whole, else from record 1. */
  async #start(): Promise<ReplaySegments> {
    this.#retraction ??= { known: await lastRetraction(this.store, this.sessionId) };
    const retraction = this.#retraction.known;
    const segments = new ReplaySegments(this.sessionId, this.capabilities, retraction);
    const key = cacheKey(this.capabilities, retraction?.rewoundAt);
    // The rows are checked as a load checks them: a state after a broken run is not continued.
    const coveredTo = await sendCachedRun(this.store, this.sessionId, key, yieldToEventLoop, this.seal);
    const state = await wholeState(this.store, this.sessionId, key, coveredTo);
    if (state) segments.resume(state.parts, state.head);
    return segments;
  }
}
