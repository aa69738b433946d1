/**
 * Driving verbatim through the SDK's own ACP client, over a spawned process (the real binary) or
 * in process. Every update is folded into a view model by the shared ViewClient.
 */
import * as acp from "@agentclientprotocol/sdk";
import type { ClientContext, ClientCapabilities } from "@agentclientprotocol/sdk";
import { createAgentApp } from "../../src/acp/agent-app.ts";
import { spawnAgent, type AgentProcess } from "../../src/client/spawn-agent.ts";
import { choose, ViewClient, type PermissionPolicy } from "../../src/client/view-client.ts";
import { engineDeps } from "../../src/core/engine-deps.ts";

export type Connected = {
  client: ViewClient;
  ctx: ClientContext;
  agent?: AgentProcess;
  close(): Promise<void>;
};

const defaultCapabilities: ClientCapabilities = {};

/** Connects a ViewClient to a freshly spawned verbatim process and initializes it. */
export async function connectProcess(
  env: Record<string, string>,
  options: { policy?: PermissionPolicy; capabilities?: ClientCapabilities } = {},
): Promise<Connected> {
  const agent = spawnAgent({ env });
  const client = new ViewClient(options.policy ?? choose("allow_once"));
  const connection = client.app().connect(agent.stream);
  const ctx = connection.agent;
  await ctx.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: options.capabilities ?? defaultCapabilities,
  });
  return {
    client,
    ctx,
    agent,
    close: async () => {
      connection.close();
      agent.kill();
      await agent.exited;
    },
  };
}

/** Connects a ViewClient to an in-process agent (no subprocess), with the given environment. */
export async function connectInProcess(
  env: Record<string, string>,
  options: { policy?: PermissionPolicy; capabilities?: ClientCapabilities } = {},
): Promise<Connected> {
  const deps = engineDeps(env);
  const { app, closeAll } = createAgentApp(deps);
  const client = new ViewClient(options.policy ?? choose("allow_once"));
  const connection = client.app().connect(app);
  const ctx = connection.agent;
  await ctx.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: options.capabilities ?? defaultCapabilities,
  });
  return {
    client,
    ctx,
    close: async () => {
      await closeAll();
      connection.close();
      deps.store.close();
    },
  };
}

export const newSession = async (ctx: ClientContext, cwd: string) =>
  ctx.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });

export const prompt = (ctx: ClientContext, sessionId: string, text: string) =>
  ctx.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] });

export const load = (ctx: ClientContext, sessionId: string, cwd: string) =>
  ctx.request(acp.methods.agent.session.load, { sessionId, cwd, mcpServers: [] });

/** Waits until `predicate` holds for the client's updates so far (polling; generous timeout). */
export async function until(predicate: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(5);
  }
}
