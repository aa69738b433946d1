/**
 * The ACP agent: method handlers wired to the engine. The wire layer holds no business logic; it
 * checks what the protocol requires, calls the engine, and sends what the projection shows.
 * One app serves one connection.
 */
import * as acp from "@agentclientprotocol/sdk";
import { RequestError, type AgentApp } from "@agentclientprotocol/sdk";
import type { EngineDeps } from "../core/session/session-runtime.ts";
import { initializeResponse } from "./capabilities.ts";
import { typed } from "./errors.ts";
import { OpenSessions } from "./open-sessions.ts";
import { promptHandlers } from "./prompt-handlers.ts";
import { lifecycleHandlers } from "./session-lifecycle.ts";
import { configHandlers } from "./config-handlers.ts";
import { authHandlers } from "./auth-handlers.ts";

export type AgentDeps = EngineDeps;

export type Agent = {
  app: AgentApp;
  /** Cancels running turns and releases every open session (on disconnect). */
  closeAll(): Promise<void>;
};

export function createAgentApp(deps: AgentDeps): Agent {
  const sessions = new OpenSessions();
  const app = acp.agent({ name: "verbatim" }).onRequest(acp.methods.agent.initialize, ({ params }) =>
    typed(() => {
      if (!Number.isInteger(params.protocolVersion) || params.protocolVersion < 0) {
        throw RequestError.invalidParams({ protocolVersion: params.protocolVersion }, "protocolVersion must be a non-negative integer");
      }
      sessions.clientCapabilities = params.clientCapabilities ?? {};
      return initializeResponse(deps.agentVersion, deps.catalog.setupMethods());
    }),
  );
  authHandlers(app, deps);
  lifecycleHandlers(app, deps, sessions);
  promptHandlers(app, sessions);
  configHandlers(app, sessions);
  return {
    app,
    closeAll: async () => {
      await Promise.all(sessions.all().map((s) => s.runtime.close()));
    },
  };
}
