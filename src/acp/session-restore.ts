/** Opening a stored session on this connection: for `session/load` (replayed) and `session/resume` (not). */
import type { AgentContext } from "@agentclientprotocol/sdk/unstable";
import type { McpServerConfig } from "../core/mcp/server-config.ts";
import { SessionRuntime, type EngineDeps } from "../core/session/session-runtime.ts";
import { openCallsInterrupted } from "../core/session/stored-sessions.ts";
import type { Projector } from "../replay/project.ts";
import { ReplayPipeline } from "../replay/replay-pipeline.ts";
import { replayEnd, wantsReplayEnd } from "./air-replay-end.ts";
import { cachedState } from "../core/replay-cache/cached-replay.ts";
import { sendCachedRun } from "../core/replay-cache/cached-run.ts";
import { pacedLines } from "./paced-lines.ts";
import type { StoredFact } from "../journal/facts/index.ts";
import { restoreOpening } from "../replay/replay-state.ts";
import { adoptAuthority } from "../replay/authority.ts";
import { cacheKey } from "../replay/cache-key.ts";
import { lastRewind } from "../core/replay-cache/rewind-lookup.ts";
import { throwIfCancelled, unknownSession } from "./errors.ts";
import { StateRest } from "../core/replay-cache/state-rest.ts";
import type { OpenSessions } from "./open-sessions.ts";
import { yieldToEventLoop } from "../shared/event-loop.ts";

/** Records a replay reads between turns of the event loop. */
const YIELD_EVERY = 1024;

export type RestoreOptions = {
  sessionId: string;
  client: AgentContext;
  /** Send what the replay pipeline yields (`session/load`), or nothing (`session/resume`, a fork). */
  replay: boolean;
  mcpServers: McpServerConfig[];
  /** A `$/cancel_request` for the request: stops a replay between updates. */
  signal?: AbortSignal;
  /** Starts the restored session (its MCP servers connect); at once unless the caller defers it. */
  begin?: (restored: SessionRuntime) => void;
};

/**
 * Rebuilds a session from its journal. With `replay`, sends what the replay pipeline yields
 * (the same projection the live path used; see replay-pipeline.ts), at the client's pace.
 * Never writes. The session continues live from the state it was restored to. A `$/cancel_request`
 * (`signal`) stops a replay between updates: the request answers cancelled, and the session is
 * not opened. `begin` starts the restored session (its MCP servers connect): at once, unless the
 * caller defers it (a fork begins once its response is written).
 */
export async function restoreSession(
  deps: EngineDeps,
  sessions: OpenSessions,
  { sessionId, client, replay, mcpServers, signal, begin = (restored) => restored.begin() }: RestoreOptions,
): Promise<SessionRuntime> {
  if (!(await deps.store.info(sessionId))) throw unknownSession(sessionId);
  const sender = sessions.sender(client);
  const projector: Projector = sessions.newProjector(true);
  // What the session's rewinds took back is known before anything is sent (replay/retraction.ts).
  const retraction = replay
    ? await lastRewind(deps.store, sessions.cacheStore, sessionId, sessions.replayCapabilities())
    : undefined;
  const pipeline = new ReplayPipeline(projector, retraction?.ranges);
  // The cached run's lines are written first, as they are read; with the state after it, the
  // run's records are not read at all: the session continues from the state (cached-replay.ts),
  // whose rest is read before the session projects another fact (state-rest.ts).
  const store = sessions.cacheStore;
  const key = cacheKey(sessions.replayCapabilities(), retraction?.rewoundAt);
  const coveredTo = store && replay ? await sendCachedRun(store, sessionId, key, pacedLines(sender, signal)) : 0;
  const state = store ? await cachedState(store, sessionId, key, replay ? coveredTo : undefined) : undefined;
  // What the session may do comes from its facts, never from the cached state (replay/authority.ts).
  const authority = state ? await deps.store.authority(sessionId, state.head.toSeq) : [];
  const rest = store && state ? new StateRest(store, sessionId, key, state, projector) : undefined;
  const io = sessions.io(sessionId, client, projector, rest);
  const project = (record: StoredFact): void => {
    // Without the state, the cached run's records are folded (the session's state and cards
    // come from the facts) but not sent: their lines were.
    if (!replay || record.seq <= coveredTo) projector.apply(record);
    else for (const update of pipeline.push(record)) sender.send(sessionId, update);
  };
  let sinceYield = 0;
  const restored = await SessionRuntime.restore(
    deps,
    io,
    sessionId,
    deps.store.readPages(sessionId, state ? state.head.toSeq + 1 : 1),
    (record) => {
      throwIfCancelled(signal);
      // The first record after a cached state waits for the state's rest (state-rest.ts).
      const whole = rest?.ready();
      if (whole) return whole.then(() => project(record));
      project(record);
      if (!replay) return undefined;
      // Written updates settle as microtasks: without a turn of the event loop now and then, a
      // long replay would read no input (a $/cancel_request, other sessions' requests) until it ends.
      if (++sinceYield < YIELD_EVERY) return sender.pressure();
      sinceYield = 0;
      return (sender.pressure() ?? Promise.resolve()).then(yieldToEventLoop);
    },
    mcpServers,
    state && {
      seq: state.head.toSeq,
      restore: (fold) => {
        restoreOpening(state.parts, state.head, projector, fold);
        adoptAuthority(fold, authority);
      },
    },
  );
  if (replay) {
    for (const update of pipeline.end(await openCallsInterrupted(deps.store, sessionId)))
      sender.send(sessionId, update);
    if (wantsReplayEnd(sessions.clientInfo, sessions.clientCapabilities)) sender.send(sessionId, replayEnd());
    await sender.flush();
    throwIfCancelled(signal);
  }
  projector.context.replay = false;
  // A session already open here (idle: load refuses while a turn runs) is replaced by the one
  // just restored; the old instance ends properly (its hooks and notifications stop).
  const previous = sessions.get(sessionId);
  sessions.set({ runtime: restored, projector });
  // MCP servers connect (now, by default); what they report is recorded when the session is next written.
  begin(restored);
  await previous?.runtime.close();
  return restored;
}
