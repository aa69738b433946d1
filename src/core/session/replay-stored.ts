/**
 * The first half of reopening a stored session: what replay needs and nothing of the engine. It
 * reads the session (the replay cache's lines and state, then the records past them), hands a
 * load's sink what the replay pipeline yields, and folds what the session's runtime continues
 * from (stored-fold.ts). The second half, the live session, is restore-session.ts: a load that
 * arrives before the engine has loaded is answered from this half alone, and its session made live
 * once the engine is ready (src/acp/replay-first.ts). This module reaches no tool, provider, hook
 * or MCP code at runtime (test/start/replay-first-imports.test.ts).
 */
import type { ReplayCacheStore } from "../../journal/replay-cache.ts";
import type { FactStore, LeaseStore, SessionRow } from "../../journal/store.ts";
import { adoptAuthority } from "../../replay/authority.ts";
import type { ReplayCapabilities } from "../../replay/cache-key.ts";
import { Projector } from "../../replay/project.ts";
import { restoreOpening } from "../../replay/replay-state.ts";
import type { ReplaySeal } from "../replay-cache/replay-seal.ts";
import type { StateRest } from "../replay-cache/state-rest.ts";
import type { ReplaySink } from "./replay-sink.ts";
import { StoredFold } from "./stored-fold.ts";
import { StoredReplay } from "./stored-replay.ts";

/** What reading a stored session needs: the journal and the seal of its replay cache. */
export type ReadingDeps = { store: FactStore & LeaseStore; replaySeal?: ReplaySeal | undefined };

export type ReplayRequest = {
  sessionId: string;
  /** The client's capabilities that change what a replay sends (derived once, at `initialize`). */
  capabilities: ReplayCapabilities;
  /** The journal, when the replay cache is kept (replay-cache-writer.ts); undefined otherwise. */
  cache: (FactStore & LeaseStore & ReplayCacheStore) | undefined;
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
  // The one reading of a stored session (stored-replay.ts): with the replay cache's state, the
  // session continues from it (cached-replay.ts), and its rest is read before the session
  // projects another fact (state-rest.ts).
  const reading = await StoredReplay.open(deps.store, sessionId, {
    projector,
    sink: replay,
    cache: cache && { store: cache, capabilities, seal: deps.replaySeal },
  });
  const { state, rest } = reading;
  // What the session may do comes from its facts, never from the cached state (replay/authority.ts).
  const authority = state ? await deps.store.authority(sessionId, state.head.toSeq) : [];
  const fold = new StoredFold();
  if (state)
    fold.restoredTo(state.head.toSeq, (restored) => {
      restoreOpening(state.parts, state.head, projector, restored);
      adoptAuthority(restored, authority);
    });
  await fold.read(deps.store.readPages(sessionId, reading.from), (record) => reading.take(record));
  const orphaned = await reading.end(deps.store, sessionId);
  return { sessionId, info, projector, fold, rest, orphaned };
}
