/**
 * The session lifecycle methods: session/new, load, resume, close and delete (session/list is in
 * list-handler.ts, session/fork in fork-handler.ts), each checking its request, calling the engine
 * and answering.
 */
import * as acp from "@agentclientprotocol/sdk/unstable";
import { RequestError, type AgentContext } from "@agentclientprotocol/sdk/unstable";
import { modeState } from "./mode-state.ts";
import { SessionRuntime, type EngineDeps } from "../core/session/session-runtime.ts";
import { deleteStoredSession, refuseHeldElsewhere } from "../core/session/stored-sessions.ts";
import { throwIfCancelled, typed, unknownSession } from "./errors.ts";
import type { HandlerRegistry } from "./handler-table.ts";
import { mcpServerConfigs } from "./mcp-servers.ts";
import type { OpenSessions } from "./open-sessions.ts";
import { checkDirectories, checkSessionId } from "./request-checks.ts";
import { openStoredSession } from "./session-restore.ts";
import { openingUpdates } from "../replay/opening-updates.ts";
import type { Followers } from "./followers.ts";

/** What the lifecycle handlers share: the engine, this connection's open sessions, and the sessions it follows. */
type Lifecycle = { app: HandlerRegistry; deps: EngineDeps; sessions: OpenSessions; followers: Followers };

/** `followers`: a session this connection follows stops being followed once it opens here (its updates then come from here). */
export function lifecycleHandlers(
  app: HandlerRegistry,
  deps: EngineDeps,
  sessions: OpenSessions,
  followers: Followers,
): void {
  const lifecycle = { app, deps, sessions, followers };
  newHandler(lifecycle);
  loadHandler(lifecycle);
  resumeHandler(lifecycle);
  closeHandler(lifecycle);
  deleteHandler(lifecycle);
}

function newHandler({ app, deps, sessions }: Lifecycle): void {
  app.onRequest(acp.methods.agent.session.new, ({ params, client, requestId }) =>
    typed(async () => {
      checkDirectories(params.cwd, params.additionalDirectories ?? []);
      const mcpServers = mcpServerConfigs(params.mcpServers);
      const projector = sessions.newProjector(false);
      const runtime = await SessionRuntime.create(deps, (sessionId) => sessions.io(sessionId, client, projector), {
        cwd: params.cwd,
        additionalDirectories: params.additionalDirectories ?? [],
        mcpServers,
      });
      sessions.set({ runtime, projector });
      // The client learns the session id from the response: what the session shows next (its
      // slash commands, its MCP servers' reports) starts once the response is written.
      sessions.afterResponse.then(requestId, () => runtime.begin());
      return {
        sessionId: runtime.sessionId,
        modes: modeState(runtime.state),
        configOptions: runtime.currentConfigOptions(),
      };
    }),
  );
}

function loadHandler(lifecycle: Lifecycle): void {
  const { app, sessions } = lifecycle;
  app.onRequest(acp.methods.agent.session.load, ({ params, client, signal }) =>
    typed(() => {
      checkSessionId(params.sessionId);
      checkDirectories(params.cwd, params.additionalDirectories ?? []);
      return sessions.lifecycle.run(params.sessionId, () => loadSession(lifecycle, params, client, signal));
    }),
  );
}

/** Replays a session in full (again, if it is open here and idle), then serves it from this connection. */
async function loadSession(
  { deps, sessions, followers }: Lifecycle,
  params: acp.LoadSessionRequest,
  client: AgentContext,
  signal: AbortSignal,
) {
  throwIfCancelled(signal);
  const open = sessions.get(params.sessionId);
  if (open?.runtime.running) {
    throw RequestError.invalidRequest(
      { reason: "turn_running", sessionId: params.sessionId },
      `session ${params.sessionId} has a turn running; wait for it to end (or cancel it) before loading it again`,
    );
  }
  const mcpServers = mcpServerConfigs(params.mcpServers);
  await followers.stop(params.sessionId);
  if (open) {
    sessions.delete(params.sessionId);
    await open.runtime.close();
  }
  const runtime = await openStoredSession(deps, sessions, {
    sessionId: params.sessionId,
    client,
    replay: true,
    mcpServers,
    signal,
  });
  activate(runtime, params);
  return { modes: modeState(runtime.state), configOptions: runtime.currentConfigOptions() };
}

function resumeHandler({ app, deps, sessions, followers }: Lifecycle): void {
  app.onRequest(acp.methods.agent.session.resume, ({ params, client }) =>
    typed(() => {
      checkSessionId(params.sessionId);
      checkDirectories(params.cwd, params.additionalDirectories ?? []);
      return sessions.lifecycle.run(params.sessionId, async () => {
        const open = sessions.get(params.sessionId);
        await followers.stop(params.sessionId);
        const runtime =
          open?.runtime ??
          (await openStoredSession(deps, sessions, {
            sessionId: params.sessionId,
            client,
            replay: false,
            mcpServers: mcpServerConfigs(params.mcpServers),
          }));
        activate(runtime, params);
        // Nothing is replayed, but what a load's replay ends with is sent before the response, as a load sends it.
        const sender = sessions.sender(client);
        for (const update of openingUpdates(runtime.state)) sender.send(params.sessionId, update);
        await sender.flush();
        return { modes: modeState(runtime.state), configOptions: runtime.currentConfigOptions() };
      });
    }),
  );
}

function closeHandler({ app, deps, sessions }: Lifecycle): void {
  app.onRequest(acp.methods.agent.session.close, ({ params }) =>
    typed(() => {
      checkSessionId(params.sessionId);
      return sessions.lifecycle.run(params.sessionId, async () => {
        const open = sessions.get(params.sessionId);
        if (!open) {
          if (!(await deps.store.info(params.sessionId))) throw unknownSession(params.sessionId);
          return {};
        }
        sessions.delete(params.sessionId);
        await open.runtime.close();
        return {};
      });
    }),
  );
}

function deleteHandler({ app, deps, sessions }: Lifecycle): void {
  app.onRequest(acp.methods.agent.session.delete, ({ params }) =>
    typed(() => {
      checkSessionId(params.sessionId);
      return sessions.lifecycle.run(params.sessionId, async () => {
        const open = sessions.get(params.sessionId);
        if (open) {
          // A delete another live process refuses must leave the session open here: ask before closing it.
          await refuseHeldElsewhere(deps.store, params.sessionId);
          sessions.delete(params.sessionId);
          await open.runtime.close();
        }
        if (!(await deleteStoredSession(deps, params.sessionId))) throw unknownSession(params.sessionId);
        return {};
      });
    }),
  );
}

/**
 * ACP: a load's or resume's `additionalDirectories` is the session's complete list of extra roots
 * from now on (none when omitted), when the request's `cwd` is the session's. A request from
 * another directory keeps the session's own roots, as it keeps its `cwd`.
 */
function activate(runtime: SessionRuntime, params: { cwd: string; additionalDirectories?: string[] | null }): void {
  if (params.cwd === runtime.state.cwd) runtime.activateDirectories(params.additionalDirectories ?? []);
}

export { activate };
