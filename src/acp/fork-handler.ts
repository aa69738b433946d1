/**
 * `session/fork` (unstable in ACP; SDK 2.4.0's `ForkSessionRequest` from its unstable entry
 * point). Without a `messageId` the fork starts at the source's end; with one (the fork-at-message
 * RFD, `sessionCapabilities.fork.atMessageId`) it holds everything up to and including that user or
 * agent message, as the client was shown it, and nothing after (an unknown id, or a thought's, is
 * an invalid-params error). The SDK's schema drops `messageId`; the app notes it from the request
 * as received (fork-message-ids.ts). The fork is then open
 * on this connection, as a resumed session is: nothing is replayed (the client has the source's
 * view, which the fork's equals but for its title), and `session/load` of the fork shows it. The
 * fork's title, recorded when it was created, is sent once the response is written (the client
 * knows the fork then), as the live path sends a fact: its projection; then what the client needs
 * to draw the fork that a load's replay would have ended with, its slash commands and context
 * usage (replay/opening-updates.ts), as `session/new` sends its commands after its response.
 */
import * as acp from "@agentclientprotocol/sdk/unstable";
import { forkSession } from "../core/session/fork.ts";
import { openingUpdates } from "../replay/opening-updates.ts";
import type { EngineDeps } from "../core/session/session-runtime.ts";
import { typed } from "./errors.ts";
import type { ForkMessageIds } from "./fork-message-ids.ts";
import type { HandlerRegistry } from "./handler-table.ts";
import { mcpServerConfigs } from "./mcp-servers.ts";
import type { OpenSessions } from "./open-sessions.ts";
import { checkDirectories, checkSessionId } from "./request-checks.ts";
import { activate } from "./session-lifecycle.ts";
import { modeState } from "./mode-state.ts";
import { openStoredSession } from "./session-restore.ts";

export function forkHandlers(
  app: HandlerRegistry,
  deps: EngineDeps,
  sessions: OpenSessions,
  messageIds: ForkMessageIds,
): void {
  app.onRequest(acp.methods.agent.session.fork, ({ params, client, requestId }) =>
    typed(() => {
      const atMessageId = forkMessageId(messageIds.take(requestId));
      checkSessionId(params.sessionId);
      checkDirectories(params.cwd, params.additionalDirectories ?? []);
      const mcpServers = mcpServerConfigs(params.mcpServers ?? []);
      // One at a time with the source's loads, closes and deletes: the copy is of a settled journal.
      return sessions.lifecycle.run(params.sessionId, async () => {
        const running = sessions.get(params.sessionId)?.runtime.running ?? false;
        const { sessionId, title } = await forkSession(deps.store, params.sessionId, running, atMessageId);
        // Restored without a replay (the client has the source's view, which the fork's equals). As
        // after session/new, what the fork shows next (its MCP servers' reports) follows the response.
        const runtime = await openStoredSession(deps, sessions, {
          sessionId,
          client,
          replay: false,
          mcpServers,
          begin: (fork) =>
            sessions.afterResponse.then(requestId, () => {
              const projector = sessions.get(sessionId)?.projector;
              const sender = sessions.sender(client);
              if (title && projector) for (const update of projector.apply(title)) sender.send(sessionId, update);
              for (const update of openingUpdates(fork.state)) sender.send(sessionId, update);
              fork.begin();
            }),
        });
        activate(runtime, params);
        return { sessionId, modes: modeState(runtime.state), configOptions: runtime.currentConfigOptions() };
      });
    }),
  );
}

/** A fork request's `messageId`: absent, or a string (a message id is one). */
function forkMessageId(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string")
    throw acp.RequestError.invalidParams({ messageId: value }, "messageId must be a string");
  return value;
}
