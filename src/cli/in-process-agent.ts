/**
 * The agent in this process, as `run` and `chat` use it: the SDK client connected to the agent
 * app over memory streams (the real ACP path, every message validated by the SDK), the engine's
 * dependencies for the given environment, and one way to close it all.
 */
import * as acp from "@agentclientprotocol/sdk";
import type { ClientContext, SessionNotification } from "@agentclientprotocol/sdk";
import { createAgentApp } from "../acp/agent-app.ts";
import { ViewClient, type PermissionPolicy } from "../client/view-client.ts";
import { engineDeps } from "../core/engine-deps.ts";
import type { EngineDeps } from "../core/session/session-runtime.ts";

export type InProcessAgent = {
  agent: ClientContext;
  deps: EngineDeps;
  client: ViewClient;
  close(): Promise<void>;
};

export async function startInProcessAgent(
  env: Record<string, string | undefined>,
  options: { trust: boolean; onUpdate: (n: SessionNotification) => void; permission: PermissionPolicy },
): Promise<InProcessAgent> {
  const deps = engineDeps(env, { trust: options.trust });
  const { inMemory, closeAll } = createAgentApp(deps);
  const client = new ViewClient(options.permission);
  client.onUpdate = options.onUpdate;
  const connection = client.app().connect(inMemory());
  const agent = connection.agent;
  const close = async () => {
    await closeAll();
    connection.close();
    await deps.store.close();
  };
  try {
    await agent.request(acp.methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: {},
    });
  } catch (error) {
    await close();
    throw error;
  }
  return { agent, deps, client, close };
}
