/**
 * Everything past `initialize`: the journal, the providers, the tools and the session handlers.
 * The app loads this module on the first method that needs it, so answering `initialize` costs
 * only the SDK.
 */
import type { ClientCapabilities } from "@agentclientprotocol/sdk";
import { engineDeps } from "../core/engine-deps.ts";
import type { EngineDeps } from "../core/session/session-runtime.ts";
import { configHandlers } from "./config-handlers.ts";
import { HandlerTable } from "./handler-table.ts";
import { OpenSessions } from "./open-sessions.ts";
import { promptHandlers } from "./prompt-handlers.ts";
import { lifecycleHandlers } from "./session-lifecycle.ts";

export type Engine = { deps: EngineDeps; sessions: OpenSessions; handlers: HandlerTable };

/** Wires the session handlers to `deps` (from the environment when not given). */
export function loadEngine(deps: EngineDeps | undefined, clientCapabilities: ClientCapabilities): Engine {
  const wired = deps ?? engineDeps();
  const sessions = new OpenSessions();
  sessions.clientCapabilities = clientCapabilities;
  const handlers = new HandlerTable();
  lifecycleHandlers(handlers, wired, sessions);
  promptHandlers(handlers, sessions);
  configHandlers(handlers, sessions);
  return { deps: wired, sessions, handlers };
}
