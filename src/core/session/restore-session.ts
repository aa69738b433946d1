/**
 * Rebuilding a stored session from its journal: for a load (replayed through a sink the wire
 * implements, replay-sink.ts) and for a resume or a fork (nothing replayed). The wire keeps only
 * its protocol: what it answers for an unknown session, its table of open sessions, the client.
 * The reading and replaying is replay-stored.ts (no engine); this side makes the session live.
 */
import type { Projector } from "../../replay/project.ts";
import type { McpServerConfig } from "../mcp/server-config.ts";
import type { StateRest } from "../replay-cache/state-rest.ts";
import { replayStored, type ReplayedSession, type ReplayRequest } from "./replay-stored.ts";
import { SessionRuntime, type EngineDeps, type SessionIo } from "./session-runtime.ts";

export type RestoreRequest = ReplayRequest & {
  mcpServers: McpServerConfig[];
  /** The restored session's link to its client, publishing through `projector`. */
  io: (projector: Projector) => SessionIo;
};

/** A restored session with the projector that shows its facts from now on (live). */
export type RestoredSession = { runtime: SessionRuntime; projector: Projector };

/**
 * Rebuilds a session from its journal; undefined when the journal holds no such session. With
 * `replay`, hands it what the replay pipeline yields first (replay-stored.ts). Never writes. The
 * session continues live from the state it was restored to; it is not started (`begin`).
 */
export async function restoreSession(deps: EngineDeps, request: RestoreRequest): Promise<RestoredSession | undefined> {
  const replayed = await replayStored(deps, request);
  if (!replayed) return undefined;
  return { runtime: liveSession(deps, replayed, request.io, request.mcpServers), projector: replayed.projector };
}

/**
 * The live session of one read (and maybe replayed) by replayStored: it continues from what was
 * folded, without reading the records again. Jobs a dead writer left running are killed now;
 * their ends are recorded at the next write. Never writes; the session is not started (`begin`).
 */
export function liveSession(
  deps: EngineDeps,
  replayed: ReplayedSession,
  io: (projector: Projector) => SessionIo,
  mcpServers: McpServerConfig[],
): SessionRuntime {
  const { sessionId, info, fold, rest, projector } = replayed;
  const runtime = SessionRuntime.adopt(deps, publishedAfter(rest, io(projector)), sessionId, info, fold, mcpServers);
  if (replayed.orphaned) runtime.endOrphanJobs();
  return runtime;
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
