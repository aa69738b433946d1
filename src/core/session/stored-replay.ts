/**
 * The one reading of a stored session, for `session/load`, an attach, `verbatim show` and `verbatim
 * watch`: the session's last rewind is found first (what it took back is left out of what is sent:
 * replay/retraction.ts), its records go through the replay pipeline (the same projection the live
 * path used: replay-pipeline.ts) into a sink (replay-sink.ts), a cancel is looked for between
 * records and the event loop is given a turn every 1,024 of them, and the replay ends with the
 * calls a dead process left open marked interrupted. A load that keeps the replay cache takes its
 * shortcut: the cached run's lines are handed on first, and with the state after it, the run's
 * records are not read at all (cached-replay.ts). Never writes.
 */
import type { StoredFact } from "../../journal/facts/index.ts";
import type { ReplayCacheStore } from "../../journal/replay-cache.ts";
import type { FactStore, LeaseStore } from "../../journal/store.ts";

/** What reading a stored session reads: its facts, and who holds it (a dead writer's calls are marked interrupted). */
type ReadStore = FactStore & LeaseStore;
import { cacheKey, type ReplayCapabilities } from "../../replay/cache-key.ts";
import type { Projector } from "../../replay/project.ts";
import { ReplayPipeline } from "../../replay/replay-pipeline.ts";
import { yieldToEventLoop } from "../../shared/event-loop.ts";
import { cachedState, type CachedState } from "../replay-cache/cached-replay.ts";
import { sendCachedRun } from "../replay-cache/cached-run.ts";
import type { ReplaySeal } from "../replay-cache/replay-seal.ts";
import { lastRewind } from "../replay-cache/rewind-lookup.ts";
import { StateRest } from "../replay-cache/state-rest.ts";
import type { ReplaySink } from "./replay-sink.ts";
import { openCallsInterrupted } from "./open-calls.ts";

/** Records a replay reads between turns of the event loop. */
const YIELD_EVERY = 1024;

export type StoredReplayRequest = {
  /** Fresh, in replay mode (`context.replay`): it folds every record read. */
  projector: Projector;
  /** Where the replay goes; without it nothing is replayed (a resume, a fork: the records are only folded). */
  sink?: ReplaySink | undefined;
  /** The replay cache a load takes its shortcut through: the journal that keeps it, and under which key and seal. */
  cache?:
    | { store: ReadStore & ReplayCacheStore; capabilities: ReplayCapabilities; seal: ReplaySeal | undefined }
    | undefined;
};

/**
 * A stored session being read: `open` finds its rewind (and takes the replay cache's shortcut),
 * `take` each record from `from` on in journal order, then `end`.
 */
export class StoredReplay {
  #sinceYield = 0;

  private constructor(
    private readonly projector: Projector,
    private readonly sink: ReplaySink | undefined,
    private readonly pipeline: ReplayPipeline | undefined,
    /** The last record the cached run's lines showed (0: none): those records are folded, not handed on. */
    private readonly coveredTo: number,
    /** The state after the cached run, when the cache had it whole: the records up to its head are not read. */
    readonly state: CachedState | undefined,
    /** The state's rest, read before the session projects another fact (state-rest.ts). */
    readonly rest: StateRest | undefined,
  ) {}

  /** Looks up what the replay needs before it sends anything, and hands on the cached run's lines. */
  static async open(store: ReadStore, sessionId: string, request: StoredReplayRequest): Promise<StoredReplay> {
    const { projector, sink, cache } = request;
    // What the session's rewinds took back is known before anything is sent.
    const retraction = sink ? await lastRewind(store, sessionId, cache) : undefined;
    const pipeline = sink ? new ReplayPipeline(projector, retraction?.ranges) : undefined;
    if (!cache) return new StoredReplay(projector, sink, pipeline, 0, undefined, undefined);
    const key = cacheKey(cache.capabilities, retraction?.rewoundAt);
    const lines = sink?.lines;
    const coveredTo = lines ? await sendCachedRun(cache.store, sessionId, key, (l) => lines(l), cache.seal) : 0;
    const state = await cachedState(cache.store, sessionId, key, lines ? coveredTo : undefined);
    const rest = state ? new StateRest(cache.store, sessionId, key, state, projector) : undefined;
    return new StoredReplay(projector, sink, pipeline, coveredTo, state, rest);
  }

  /** The first record to read: the one after the cached state, or the first. */
  get from(): number {
    return this.state ? this.state.head.toSeq + 1 : 1;
  }

  /**
   * Takes one record: folded, and what it shows handed on; a promise when the reading should wait
   * (the client's pace, the state's rest, a turn of the event loop). Throws the sink's error once
   * it was cancelled.
   */
  take(record: StoredFact): Promise<void> | undefined {
    this.sink?.stopIfCancelled();
    // The first record after a cached state waits for the state's rest (state-rest.ts).
    const whole = this.rest?.ready();
    if (whole) return whole.then(() => this.#project(record));
    this.#project(record);
    if (!this.sink) return undefined;
    // Handed-on updates settle as microtasks: without a turn of the event loop now and then, a
    // long replay would read no input (a $/cancel_request, other requests) until it ends.
    if (++this.#sinceYield < YIELD_EVERY) return this.sink.pressure();
    this.#sinceYield = 0;
    return (this.sink.pressure() ?? Promise.resolve()).then(yieldToEventLoop);
  }

  #project(record: StoredFact): void {
    // The cached run's records are folded (the session's state and cards come from the facts) but not handed on: their lines were.
    if (!this.pipeline || record.seq <= this.coveredTo) this.projector.apply(record);
    else for (const update of this.pipeline.push(record)) this.sink?.update(update);
  }

  /**
   * Ends the replay: what the pipeline still holds, then, when no live process holds the session
   * (`interrupted`, returned), its open calls marked interrupted (unless `marks` is false), and
   * the sink's end. The projector projects live facts from now on.
   */
  async end(store: ReadStore, sessionId: string, marks = true): Promise<boolean> {
    const interrupted = await openCallsInterrupted(store, sessionId);
    if (this.pipeline) for (const update of this.pipeline.end(marks && interrupted)) this.sink?.update(update);
    await this.sink?.end();
    this.projector.context.replay = false;
    return interrupted;
  }
}

export type ReadStoredRequest = StoredReplayRequest & {
  /** Told every record once it is taken (a follower's cursor, a state fold). */
  each?: (record: StoredFact) => void;
  /** The last record read (all of them when undefined). */
  upTo?: number;
  /** Whether the replay ends with the open calls marked interrupted (when no live process holds the session). */
  marks?: boolean;
};

/**
 * Reads a stored session whole through a StoredReplay (see the file's comment), for a client that
 * is not restoring it to continue it (an attach, `show`, `watch`). Resolves once the sink's end
 * has: true when no live process holds the session. Throws the store's and the sink's errors.
 */
export async function readStoredSession(
  store: ReadStore,
  sessionId: string,
  request: ReadStoredRequest,
): Promise<boolean> {
  const replay = await StoredReplay.open(store, sessionId, request);
  const { each, upTo } = request;
  pages: for await (const page of store.readPages(sessionId, replay.from)) {
    for (const record of page) {
      if (upTo !== undefined && record.seq > upTo) break pages;
      const wait = replay.take(record);
      if (wait) await wait;
      each?.(record);
    }
  }
  return replay.end(store, sessionId, request.marks ?? true);
}
