/**
 * The engine's side of a load or resume served before it had loaded (replay-first.ts): each
 * session read then becomes live on this connection, as session-lifecycle.ts opens one: its
 * runtime continues from what the replay folded (nothing is read again), its MCP servers
 * connect, and the request's directories are activated.
 */
import { liveSession } from "../core/session/restore-session.ts";
import type { EngineDeps } from "../core/session/session-runtime.ts";
import type { OpenSessions } from "./open-sessions.ts";
import type { PendingSession } from "./replay-first.ts";
import { activate } from "./session-lifecycle.ts";

export function goLive(deps: EngineDeps, sessions: OpenSessions, pending: readonly PendingSession[]): void {
  for (const { replayed, client, params, mcpServers } of pending) {
    const { sessionId, projector } = replayed;
    const runtime = liveSession(deps, replayed, (p) => sessions.io(sessionId, client, p), mcpServers);
    sessions.set({ runtime, projector });
    runtime.begin();
    activate(runtime, params);
  }
}
