/**
 * Opening a stored session on this connection: for `session/load` (replayed to the client) and
 * `session/resume` and forks (not). The restore itself is the engine's
 * (core/session/restore-session.ts); this side adapts it to the wire and to the connection's
 * table of open sessions.
 */
import type { AgentContext } from "@agentclientprotocol/sdk/unstable";
import type { McpServerConfig } from "../core/mcp/server-config.ts";
import { restoreSession } from "../core/session/restore-session.ts";
import type { EngineDeps, SessionRuntime } from "../core/session/session-runtime.ts";
import { clientReplaySink } from "./client-replay-sink.ts";
import { unknownSession } from "./errors.ts";
import { defined } from "../shared/defined.ts";
import type { OpenSessions } from "./open-sessions.ts";

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
 * Rebuilds a session from its journal (never writing: the engine's restoreSession) and opens it here. With `replay`, the
 * client is sent the replay at its pace. A `$/cancel_request` (`signal`) stops a replay between
 * updates: the request answers cancelled, and the session is not opened. `begin` starts the
 * restored session (its MCP servers connect): at once, unless the caller defers it (a fork begins
 * once its response is written).
 */
export async function openStoredSession(
  deps: EngineDeps,
  sessions: OpenSessions,
  { sessionId, client, replay, mcpServers, signal, begin = (restored) => restored.begin() }: RestoreOptions,
): Promise<SessionRuntime> {
  const profile = sessions.profile();
  const restored = await restoreSession(deps, {
    sessionId,
    capabilities: profile.replay,
    cache: sessions.cacheStore,
    mcpServers,
    io: (projector) => sessions.io(sessionId, client, projector),
    ...defined({ replay: replay ? clientReplaySink(sessions.sender(client), sessionId, profile, signal) : undefined }),
  });
  if (!restored) throw unknownSession(sessionId);
  // A session already open here (idle: load refuses while a turn runs) is replaced by the one
  // just restored; the old instance ends properly (its hooks and notifications stop).
  const previous = sessions.get(sessionId);
  sessions.set(restored);
  // MCP servers connect (now, by default); what they report is recorded when the session is next written.
  begin(restored.runtime);
  await previous?.runtime.close();
  return restored.runtime;
}
