/**
 * Driving verbatim through the SDK's own ACP client, over a spawned process (the real binary) or
 * in process. Every update is folded into a view model by the shared ViewClient.
 */
import * as acp from "@agentclientprotocol/sdk";
import type { ClientCapabilities, ClientContext, Stream } from "@agentclientprotocol/sdk";
import type { ForkSessionRequest, ForkSessionResponse } from "@agentclientprotocol/sdk/unstable";
import { createAgentApp } from "../../src/acp/agent-app.ts";
import { agentCommand, spawnAgent, type AgentProcess } from "../../src/client/spawn-agent.ts";
import { choose, ViewClient, type PermissionPolicy } from "../../src/client/view-client.ts";
import { engineDeps } from "../../src/core/engine-deps.ts";
import type { ToolRegistry } from "../../src/core/tools/registry.ts";
import type { ClientServices } from "./client-services.ts";

export type Connected = {
  client: ViewClient;
  ctx: ClientContext;
  agent?: AgentProcess;
  close(): Promise<void>;
};

const defaultCapabilities: ClientCapabilities = {};

/** How a test client behaves: how it answers permissions, what it offers (fs, terminals). */
export type ClientOptions = { policy?: PermissionPolicy; capabilities?: ClientCapabilities; services?: ClientServices };

const viewClient = (options: ClientOptions) =>
  new ViewClient(options.policy ?? choose("allow_once"), options.services?.register);
const capabilitiesOf = (options: ClientOptions) =>
  options.capabilities ?? options.services?.capabilities() ?? defaultCapabilities;

/** A ViewClient connected to `target` (a stream or an agent app), initialized. */
async function connected(target: Stream, options: ClientOptions) {
  const client = viewClient(options);
  const connection = client.app().connect(target);
  await connection.agent.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: capabilitiesOf(options),
  });
  return { client, connection, ctx: tellingPromptEnds(connection.agent, client) };
}

/**
 * The agent context, with each `session/prompt` answer also given to the client (as an editor
 * handles a prompt's end: a refusal takes the prompt out of the view).
 */
function tellingPromptEnds(agent: ClientContext, client: ViewClient): ClientContext {
  return new Proxy(agent, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (prop !== "request" || typeof value !== "function")
        return typeof value === "function" ? value.bind(target) : value;
      return async (method: string, params: unknown, ...rest: unknown[]) => {
        const result: unknown = await value.call(target, method, params, ...rest);
        if (method === acp.methods.agent.session.prompt) {
          client.promptEnded(
            (params as { sessionId: string }).sessionId,
            (result as { stopReason: acp.StopReason }).stopReason,
          );
        }
        return result;
      };
    },
  });
}

/**
 * Connects a ViewClient to a freshly spawned verbatim process (with `args`, and in the working
 * directory `cwd`, if given) and initializes it.
 */
export async function connectProcess(
  env: Record<string, string>,
  options: ClientOptions & { args?: string[]; cwd?: string } = {},
): Promise<Connected> {
  const agent = spawnAgent({
    env,
    ...(options.cwd ? { cwd: options.cwd } : {}),
    ...(options.args ? { command: [...agentCommand(), ...options.args] } : {}),
  });
  const { client, connection, ctx } = await connected(agent.stream, options);
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

/**
 * Connects a ViewClient to an in-process agent (no subprocess), with the given environment
 * (and, optionally, a different set of tools than the built-in ones).
 */
export async function connectInProcess(
  env: Record<string, string>,
  options: ClientOptions & { tools?: ToolRegistry } = {},
): Promise<Connected> {
  const deps = { ...engineDeps(env), ...(options.tools ? { tools: options.tools } : {}) };
  const { inMemory, closeAll } = createAgentApp(deps);
  const { client, connection, ctx } = await connected(inMemory(), options);
  return {
    client,
    ctx,
    close: async () => {
      await closeAll();
      connection.close();
      await deps.store.close();
    },
  };
}

export const newSession = async (ctx: ClientContext, cwd: string, mcpServers: acp.McpServer[] = []) =>
  ctx.request(acp.methods.agent.session.new, { cwd, mcpServers });

export const prompt = (ctx: ClientContext, sessionId: string, text: string) =>
  ctx.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] });

export const load = (ctx: ClientContext, sessionId: string, cwd: string, mcpServers: acp.McpServer[] = []) =>
  ctx.request(acp.methods.agent.session.load, { sessionId, cwd, mcpServers });

/** Waits until `predicate` holds for the client's updates so far (polling; generous timeout). */
export async function until(predicate: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(5);
  }
}

/** The error a request failed with (the test fails if it succeeded). */
export async function errorOf(request: Promise<unknown>): Promise<{ code: number; message: string; data?: unknown }> {
  try {
    await request;
  } catch (error) {
    return error as { code: number; message: string; data?: unknown };
  }
  throw new Error("expected the request to fail");
}

/**
 * `session/fork`, an unstable method: the stable client sends it as it sends any method; its
 * request and response types are the SDK's unstable entry point's.
 */
export function fork(ctx: ClientContext, params: ForkSessionRequest): Promise<ForkSessionResponse> {
  const send = ctx.request.bind(ctx) as unknown as (
    method: string,
    params: ForkSessionRequest,
  ) => Promise<ForkSessionResponse>;
  return send("session/fork", params);
}
