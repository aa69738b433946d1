/**
 * Rebuilding a stored session from its journal: for a load (replayed through a sink the wire
 * implements, replay-sink.ts) and for a resume or a fork (nothing replayed). The wire keeps only
 * its protocol: what it answers for an unknown session, its table of open sessions, the client.
 */
import type { JournalStore } from "../../journal/store.ts";
import { adoptAuthority } from "../../replay/authority.ts";
import type { ReplayCapabilities } from "../../replay/cache-key.ts";
import { Projector } from "../../replay/project.ts";
import { restoreOpening } from "../../replay/replay-state.ts";
import type { McpServerConfig } from "../mcp/server-config.ts";
import type { StateRest } from "../replay-cache/state-rest.ts";
import type { ReplaySink } from "./replay-sink.ts";
import { SessionRuntime, type EngineDeps, type SessionIo } from "./session-runtime.ts";
import { StoredReplay } from "./stored-replay.ts";

export type RestoreRequest = {
  sessionId: string;
  /** The client's capabilities that change what a replay sends (derived once, at `initialize`). */
  capabilities: ReplayCapabilities;
  /** The journal, when the replay cache is kept (replay-cache-writer.ts); undefined otherwise. */
  cache: JournalStore | undefined;
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
  const runtime = await SessionRuntime.restore(
    deps,
    publishedAfter(rest, request.io(projector)),
    sessionId,
    deps.store.readPages(sessionId, reading.from),
    (record) => reading.take(record),
    request.mcpServers,
    state && {
      seq: state.head.toSeq,
      restore: (fold) => {
        restoreOpening(state.parts, state.head, projector, fold);
        adoptAuthority(fold, authority);
      },
    },
  );
  const orphaned = await reading.end(deps.store, sessionId);
  // Jobs a dead writer left running are killed now; their ends are recorded at the next write.
  if (orphaned) runtime.endOrphanJobs();
  return { runtime, projector };
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
