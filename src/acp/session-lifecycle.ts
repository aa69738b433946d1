/** session/new, load, resume, close and delete (session/list is in list-handler.ts, session/fork in fork-handler.ts). */
import * as acp from "@agentclientprotocol/sdk/unstable";
import { RequestError, type AgentContext, type SessionModeState } from "@agentclientprotocol/sdk/unstable";
import { hostname } from "node:os";
import { isAbsolute } from "node:path";
import { isValidSessionId } from "../core/ids.ts";
import type { McpServerConfig } from "../core/mcp/server-config.ts";
import { SessionRuntime, type EngineDeps } from "../core/session/session-runtime.ts";
import { ChunkCoalescer } from "../replay/coalesce.ts";
import { RetractedTurns } from "../replay/retracted-turns.ts";
import { removeEnvFile } from "../core/hooks/env-file.ts";
import { busy } from "../journal/errors.ts";
import type { Projector } from "../replay/project.ts";
import { replayEnd, wantsReplayEnd } from "./air-replay-end.ts";
import { throwIfCancelled, typed, unknownSession } from "./errors.ts";
import type { HandlerRegistry } from "./handler-table.ts";
import { mcpServerConfigs } from "./mcp-servers.ts";
import type { OpenSessions } from "./open-sessions.ts";

export function lifecycleHandlers(app: HandlerRegistry, deps: EngineDeps, sessions: OpenSessions): void {
  app.onRequest(acp.methods.agent.session.new, ({ params, client }) =>
    typed(async () => {
      checkDirectories(params.cwd, params.additionalDirectories ?? []);
      const mcpServers = mcpServerConfigs(params.mcpServers);
      const projector = sessions.newProjector(false);
      const runtime = await SessionRuntime.create(
        deps,
        (sessionId) => sessions.io(sessionId, client, projector),
        { cwd: params.cwd, additionalDirectories: params.additionalDirectories ?? [], mcpServers },
      );
      sessions.set({ runtime, projector });
      // The client learns the session id from the response: what the session shows next (its
      // slash commands, its MCP servers' reports) goes out after it.
      setTimeout(() => runtime.begin(), 0);
      return { sessionId: runtime.sessionId, modes: modeState(runtime), configOptions: runtime.currentConfigOptions() };
    }),
  );

  app.onRequest(acp.methods.agent.session.load, ({ params, client, signal }) =>
    typed(() => {
      checkSessionId(params.sessionId);
      checkDirectories(params.cwd, params.additionalDirectories ?? []);
      return sessions.lifecycle.run(params.sessionId, () => loadSession(params, client, signal));
    }),
  );

  /** Replays a session in full (again, if it is open here and idle), then serves it from this connection. */
  async function loadSession(params: acp.LoadSessionRequest, client: AgentContext, signal: AbortSignal) {
    throwIfCancelled(signal);
    const open = sessions.get(params.sessionId);
    if (open?.runtime.running) {
      throw RequestError.invalidRequest(
        { reason: "turn_running", sessionId: params.sessionId },
        `session ${params.sessionId} has a turn running; wait for it to end (or cancel it) before loading it again`,
      );
    }
    const mcpServers = mcpServerConfigs(params.mcpServers);
    if (open) {
      sessions.delete(params.sessionId);
      await open.runtime.close();
    }
    const runtime = await restore(params.sessionId, client, true, mcpServers, signal);
    activate(runtime, params);
    return { modes: modeState(runtime), configOptions: runtime.currentConfigOptions() };
  }

  app.onRequest(acp.methods.agent.session.resume, ({ params, client }) =>
    typed(() => {
      checkSessionId(params.sessionId);
      checkDirectories(params.cwd, params.additionalDirectories ?? []);
      return sessions.lifecycle.run(params.sessionId, async () => {
        const open = sessions.get(params.sessionId);
        const runtime = open ?? { runtime: await restore(params.sessionId, client, false, mcpServerConfigs(params.mcpServers)) };
        activate(runtime.runtime, params);
        return { modes: modeState(runtime.runtime), configOptions: runtime.runtime.currentConfigOptions() };
      });
    }),
  );

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

  app.onRequest(acp.methods.agent.session.delete, ({ params }) =>
    typed(() => {
      checkSessionId(params.sessionId);
      return sessions.lifecycle.run(params.sessionId, async () => {
        const open = sessions.get(params.sessionId);
        if (open) {
          // A delete another live process refuses must leave the session open here: ask before closing it.
          const holder = await deps.store.holder(params.sessionId);
          if (holder && (holder.pid !== process.pid || (holder.host !== undefined && holder.host !== hostname()))) throw busy(params.sessionId, holder);
          sessions.delete(params.sessionId);
          await open.runtime.close();
        }
        if (!(await deps.store.delete(params.sessionId))) throw unknownSession(params.sessionId);
        removeEnvFile(deps.hooks?.env ?? process.env, params.sessionId);
        return {};
      });
    }),
  );

  /**
   * Rebuilds a session from its journal. With `replay`, streams every recorded update (through
   * the same projection the live path used) and then marks calls a dead process left open.
   * Never writes. The session continues live from the state it was restored to. A `$/cancel_request`
   * (`signal`) stops a replay between updates: the request answers cancelled, and the session is
   * not opened.
   */
  async function restore(
    sessionId: string, client: AgentContext, replay: boolean, mcpServers: McpServerConfig[], signal?: AbortSignal,
  ): Promise<SessionRuntime> {
    if (!(await deps.store.info(sessionId))) throw unknownSession(sessionId);
    const sender = sessions.sender(client);
    const projector: Projector = sessions.newProjector(true);
    const coalescer = new ChunkCoalescer();
    const turns = new RetractedTurns();
    const io = sessions.io(sessionId, client, projector);
    let sinceYield = 0;
    const restored = await SessionRuntime.restore(deps, io, sessionId, deps.store.readPages(sessionId), (record) => {
      throwIfCancelled(signal);
      const updates = projector.apply(record);
      if (!replay) return undefined;
      for (const update of turns.push(record.fact, updates)) for (const ready of coalescer.push(update)) sender.send(sessionId, ready);
      // Written updates settle as microtasks: without a turn of the event loop now and then, a
      // long replay would read no input (a $/cancel_request, other sessions' requests) until it ends.
      if (++sinceYield < YIELD_EVERY) return sender.pressure();
      sinceYield = 0;
      return (sender.pressure() ?? Promise.resolve()).then(yieldToEventLoop);
    }, mcpServers);
    if (replay) {
      for (const update of turns.flush()) for (const ready of coalescer.push(update)) sender.send(sessionId, ready);
      for (const ready of coalescer.flush()) sender.send(sessionId, ready);
      const holder = await deps.store.holder(sessionId);
      // Open calls are marked interrupted only when no live process (other than this one) holds the session.
      if (!holder || holder.pid === process.pid) {
        for (const mark of projector.interruptionMarks()) sender.send(sessionId, mark);
      }
      if (wantsReplayEnd(sessions.clientInfo, sessions.clientCapabilities)) sender.send(sessionId, replayEnd());
      await sender.flush();
      throwIfCancelled(signal);
    }
    projector.context.replay = false;
    // A session already open here (idle: load refuses while a turn runs) is replaced by the one
    // just restored; the old instance ends properly (its hooks and notifications stop).
    const previous = sessions.get(sessionId);
    sessions.set({ runtime: restored, projector });
    // MCP servers connect now; what they report is recorded when the session is next written.
    restored.begin();
    await previous?.runtime.close();
    return restored;
  }
}

/**
 * ACP: a load's or resume's `additionalDirectories` is the session's complete list of extra roots
 * from now on (none when omitted), when the request's `cwd` is the session's. A request from
 * another directory keeps the session's own roots, as it keeps its `cwd`.
 */
function activate(runtime: SessionRuntime, params: { cwd: string; additionalDirectories?: string[] | null }): void {
  if (params.cwd === runtime.state.cwd) runtime.activateDirectories(params.additionalDirectories ?? []);
}

/** Records a replay reads between turns of the event loop. */
const YIELD_EVERY = 1024;

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

function modeState(runtime: SessionRuntime): SessionModeState {
  return { currentModeId: runtime.state.modeId, availableModes: runtime.state.availableModes };
}

function checkSessionId(sessionId: string): void {
  if (!isValidSessionId(sessionId)) {
    throw RequestError.invalidParams(
      { sessionId: sessionId.slice(0, 200) },
      "session ids contain only letters, digits, '_' and '-' (at most 128 characters)",
    );
  }
}

/** Longer than any path the system can open (Linux's PATH_MAX): refused rather than stored. */
const MAX_PATH_LENGTH = 4096;

/** `cwd` and `additionalDirectories` must be absolute paths, without NUL bytes, of a usable length. */
function checkDirectories(cwd: string, additional: string[]): void {
  for (const dir of [cwd, ...additional]) {
    if (!isAbsolute(dir) || dir.includes("\0")) {
      throw RequestError.invalidParams({ path: dir.slice(0, 500) }, `directories must be absolute paths, got "${dir.slice(0, 200)}"`);
    }
    if (dir.length > MAX_PATH_LENGTH) {
      throw RequestError.invalidParams({ path: dir.slice(0, 500) }, `directory paths are at most ${MAX_PATH_LENGTH} characters, got one of ${dir.length}`);
    }
  }
}

export { activate, checkDirectories, checkSessionId, modeState };
