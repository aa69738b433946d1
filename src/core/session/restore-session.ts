/**
 * Rebuilding a stored session from its journal: for a load (replayed through a sink the wire
 * implements, replay-sink.ts) and for a resume or a fork (nothing replayed). The wire keeps only
 * its protocol: what it answers for an unknown session, its table of open sessions, the client.
 */
import type { StoredFact } from "../../journal/facts/index.ts";
import type { LeaseStore, FactStore } from "../../journal/store.ts";
import type { ReplayCacheStore } from "../../journal/replay-cache.ts";
import { adoptAuthority } from "../../replay/authority.ts";
import { cacheKey, type ReplayCapabilities } from "../../replay/cache-key.ts";
import { Projector } from "../../replay/project.ts";
import { ReplayPipeline } from "../../replay/replay-pipeline.ts";
import { restoreOpening } from "../../replay/replay-state.ts";
import { yieldToEventLoop } from "../../shared/event-loop.ts";
import type { McpServerConfig } from "../mcp/server-config.ts";
import { cachedState } from "../replay-cache/cached-replay.ts";
import { sendCachedRun } from "../replay-cache/cached-run.ts";
import { lastRewind } from "../replay-cache/rewind-lookup.ts";
import { StateRest } from "../replay-cache/state-rest.ts";
import type { ReplaySink } from "./replay-sink.ts";
import { SessionRuntime, type EngineDeps, type SessionIo } from "./session-runtime.ts";
import { openCallsInterrupted } from "./stored-sessions.ts";

/** Records a replay reads between turns of the event loop. */
const YIELD_EVERY = 1024;

export type RestoreRequest = {
  sessionId: string;
  /** The client's capabilities that change what a replay sends (derived once, at `initialize`). */
  capabilities: ReplayCapabilities;
  /** The journal, when the replay cache is kept (replay-cache-writer.ts); undefined otherwise. */
  cache: (FactStore & LeaseStore & ReplayCacheStore) | undefined;
  mcpServers: McpServerConfig[];
  /** The restored session's link to its client, publishing through `projector`. */
  io: (projector: Projector) => SessionIo;
  /** Where a load's replay goes; without it nothing is replayed (`session/resume`, a fork). */
  replay?: ReplaySink;
};

/** A restored session with the projector that shows its facts from now on (live). */
export type RestoredSession = { runtime: SessionRuntime; projector: Projector };

/**
 * Rebuilds a session from its journal; undefined when the journal holds no such session. With
 * `replay`, hands it what the replay pipeline yields (the same projection the live path used;
 * see replay-pipeline.ts), at the pace the sink asks for, and ends the replay. Never writes. The
 * session continues live from the state it was restored to; it is not started (`begin`). A sink
 * that stops a cancelled load (`stopIfCancelled`) stops it between records.
 */
export async function restoreSession(deps: EngineDeps, request: RestoreRequest): Promise<RestoredSession | undefined> {
  const { sessionId, capabilities, cache, replay } = request;
  if (!(await deps.store.info(sessionId))) return undefined;
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
  const runtime = await SessionRuntime.restore(
    deps,
    publishedAfter(rest, request.io(projector)),
    sessionId,
    deps.store.readPages(sessionId, state ? state.head.toSeq + 1 : 1),
    eachRecord(project, rest, replay),
    request.mcpServers,
    state && {
      seq: state.head.toSeq,
      restore: (fold) => {
        restoreOpening(state.parts, state.head, projector, fold);
        adoptAuthority(fold, authority);
      },
    },
  );
  const orphaned = await openCallsInterrupted(deps.store, sessionId);
  if (replay) {
    for (const update of pipeline.end(orphaned)) replay.update(update);
    await replay.end();
  }
  // Jobs a dead writer left running are killed now; their ends are recorded at the next write.
  if (orphaned) runtime.endOrphanJobs();
  projector.context.replay = false;
  return { runtime, projector };
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

/** `io` whose first record published waits for a restored state's rest to be read (state-rest.ts). */
function publishedAfter(rest: StateRest | undefined, io: SessionIo): SessionIo {
  if (!rest) return io;
  return {
    ...io,
    publish: (record) => {
      const whole = rest.ready();
      if (whole) return whole.then(() => io.publish(record));
      return io.publish(record);
    },
  };
}
