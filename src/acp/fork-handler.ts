/**
 * `session/fork` (unstable in ACP; SDK 2.4.0's `ForkSessionRequest` from its unstable entry
 * point). The request names no position, so the fork starts at the source's end; it is then open
 * on this connection, as a resumed session is: nothing is replayed (the client has the source's
 * view, which the fork's equals), and `session/load` of the fork shows it.
 */
import * as acp from "@agentclientprotocol/sdk/unstable";
import type { AgentContext } from "@agentclientprotocol/sdk/unstable";
import type { McpServerConfig } from "../core/mcp/server-config.ts";
import { forkSession } from "../core/session/fork.ts";
import { SessionRuntime, type EngineDeps } from "../core/session/session-runtime.ts";
import { typed } from "./errors.ts";
import type { HandlerRegistry } from "./handler-table.ts";
import { mcpServerConfigs } from "./mcp-servers.ts";
import type { OpenSessions } from "./open-sessions.ts";
import { checkDirectories, checkSessionId } from "./request-checks.ts";
import { activate, modeState } from "./session-lifecycle.ts";

export function forkHandlers(app: HandlerRegistry, deps: EngineDeps, sessions: OpenSessions): void {
  app.onRequest(acp.methods.agent.session.fork, ({ params, client }) =>
    typed(() => {
      checkSessionId(params.sessionId);
      checkDirectories(params.cwd, params.additionalDirectories ?? []);
      const mcpServers = mcpServerConfigs(params.mcpServers ?? []);
      // One at a time with the source's loads, closes and deletes: the copy is of a settled journal.
      return sessions.lifecycle.run(params.sessionId, async () => {
        const running = sessions.get(params.sessionId)?.runtime.running ?? false;
        const { sessionId } = await forkSession(deps.store, params.sessionId, running);
        const runtime = await open(sessionId, client, mcpServers);
        activate(runtime, params);
        return { sessionId, modes: modeState(runtime), configOptions: runtime.currentConfigOptions() };
      });
    }),
  );

  /** The fork, restored from its journal without replaying it, served from this connection. */
  async function open(sessionId: string, client: AgentContext, mcpServers: McpServerConfig[]): Promise<SessionRuntime> {
    const projector = sessions.newProjector(true);
    const io = sessions.io(sessionId, client, projector);
    const runtime = await SessionRuntime.restore(
      deps,
      io,
      sessionId,
      deps.store.readPages(sessionId),
      (record) => {
        projector.apply(record);
        return undefined;
      },
      mcpServers,
    );
    projector.context.replay = false;
    sessions.set({ runtime, projector });
    // As after session/new: what the session shows next (its MCP servers' reports) follows the response.
    setTimeout(() => runtime.begin(), 0);
    return runtime;
  }
}
