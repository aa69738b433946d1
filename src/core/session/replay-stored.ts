/**
 * The first half of reopening a stored session: what replay needs and nothing of the engine. It
 * reads the session (the replay cache's lines and state, then the records past them), hands a
 * load's sink what the replay pipeline yields, and folds what the session's runtime continues
 * from (stored-fold.ts). The second half, the live session, is restore-session.ts: a load that
 * arrives before the engine has loaded is answered from this half alone, and its session made live
 * once the engine is ready (src/acp/replay-first.ts). This module reaches no tool, provider, hook
 * or MCP code at runtime (test/start/replay-first-imports.test.ts).
 */
import type { StoredFact } from "../../journal/facts/index.ts";
import type { JournalStore, SessionRow } from "../../journal/store.ts";
import { adoptAuthority } from "../../replay/authority.ts";
import { cacheKey, type ReplayCapabilities } from "../../replay/cache-key.ts";
import { Projector } from "../../replay/project.ts";
import { ReplayPipeline } from "../../replay/replay-pipeline.ts";
import { restoreOpening } from "../../replay/replay-state.ts";
import { yieldToEventLoop } from "../../shared/event-loop.ts";
import { cachedState } from "../replay-cache/cached-replay.ts";
import { sendCachedRun } from "../replay-cache/cached-run.ts";
import type { ReplaySeal } from "../replay-cache/replay-seal.ts";
import { lastRewind } from "../replay-cache/rewind-lookup.ts";
import { StateRest } from "../replay-cache/state-rest.ts";
import type { ReplaySink } from "./replay-sink.ts";
import { openCallsInterrupted } from "./open-calls.ts";
import { StoredFold } from "./stored-fold.ts";

/** Records a replay reads between turns of the event loop. */
const YIELD_EVERY = 1024;

/** What reading a stored session needs: the journal and the seal of its replay cache. */
export type ReadingDeps = { store: JournalStore; replaySeal?: ReplaySeal | undefined };

export type ReplayRequest = {
  sessionId: string;
  /** The client's capabilities that change what a replay sends (derived once, at `initialize`). */
  capabilities: ReplayCapabilities;
  /** The journal, when the replay cache is kept (replay-cache-writer.ts); undefined otherwise. */
  cache: JournalStore | undefined;
  /** Where a load's replay goes; without it nothing is replayed (`session/resume`, a fork). */
  replay?: ReplaySink;
};

/** A session read and (for a load) replayed, ready to continue live (restore-session.ts). */
export type ReplayedSession = {
  sessionId: string;
  info: SessionRow;
  /** The projector that shows the session's facts from now on (live). */
  projector: Projector;
  fold: StoredFold;
  /** The rest of a restored state, read before the session projects another fact (state-rest.ts). */
  rest: StateRest | undefined;
  /** No live process other than this one holds the session: its open calls were shown interrupted. */
  orphaned: boolean;
};

/**
 * Reads a session from its journal; undefined when the journal holds no such session. With
 * `replay`, hands it what the replay pipeline yields (the same projection the live path used; see
 * replay-pipeline.ts), at the pace the sink asks for, and ends the replay. Never writes. A sink
 * that stops a cancelled load (`stopIfCancelled`) stops it between records.
 */
export async function replayStored(deps: ReadingDeps, request: ReplayRequest): Promise<ReplayedSession | undefined> {
  const { sessionId, capabilities, cache, replay } = request;
  const info = await deps.store.info(sessionId);
  if (!info) return undefined;
  const projector = new Projector({ ...capabilities, replay: true, sessionId });
  // What the session's rewinds took back is known before anything is sent (replay/retraction.ts).
  const retraction = replay ? await lastRewind(deps.store, cache, sessionId, capabilities) : undefined;
  const pipeline = new ReplayPipeline(projector, retraction?.ranges);
  // The cached run's lines are handed on first, as they are read; with the state after it, the
  // run's records are not read at all: the session continues from the state (cached-replay.ts),
  // whose rest is read before the session projects another fact (state-rest.ts).
  const key = cacheKey(capabilities, retraction?.rewoundAt);
  const coveredTo =
    cache && replay ? await sendCachedRun(cache, sessionId, key, (lines) => replay.lines(lines), deps.replaySeal) : 0;
  const state = cache ? await cachedState(cache, sessionId, key, replay ? coveredTo : undefined) : undefined;
  // What the session may do comes from its facts, never from the cached state (replay/authority.ts).
  const authority = state ? await deps.store.authority(sessionId, state.head.toSeq) : [];
  const rest = cache && state ? new StateRest(cache, sessionId, key, state, projector) : undefined;
  const project = (record: StoredFact): void => {
    // Without the state, the cached run's records are folded (the session's state and cards
    // come from the facts) but not handed on: their lines were.
    if (!replay || record.seq <= coveredTo) projector.apply(record);
    else for (const update of pipeline.push(record)) replay.update(update);
  };
  const fold = new StoredFold();
  if (state)
    fold.restoredTo(state.head.toSeq, (restored) => {
      restoreOpening(state.parts, state.head, projector, restored);
      adoptAuthority(restored, authority);
    });
  await fold.read(deps.store.readPages(sessionId, state ? state.head.toSeq + 1 : 1), eachRecord(project, rest, replay));
  const orphaned = await openCallsInterrupted(deps.store, sessionId);
  if (replay) {
    for (const update of pipeline.end(orphaned)) replay.update(update);
    await replay.end();
  }
  projector.context.replay = false;
  return { sessionId, info, projector, fold, rest, orphaned };
}

/** What a restore does with each record it reads: `project` it, at the sink's pace. */
function eachRecord(
  project: (record: StoredFact) => void,
  rest: StateRest | undefined,
  replay: ReplaySink | undefined,
): (record: StoredFact) => Promise<void> | undefined {
  let sinceYield = 0;
  return (record) => {
    replay?.stopIfCancelled();
    // The first record after a cached state waits for the state's rest (state-rest.ts).
    const whole = rest?.ready();
    if (whole) return whole.then(() => project(record));
    project(record);
    if (!replay) return undefined;
    // Handed-on updates settle as microtasks: without a turn of the event loop now and then, a
    // long replay would read no input (a $/cancel_request, other sessions' requests) until it ends.
    if (++sinceYield < YIELD_EVERY) return replay.pressure();
    sinceYield = 0;
    return (replay.pressure() ?? Promise.resolve()).then(yieldToEventLoop);
  };
}
