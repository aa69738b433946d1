/**
 * What follows a fork's response is sent after that response is written, by construction (the
 * app's AfterResponse), not by a timer: while the response waits to be written, the fork has not
 * begun (its MCP servers are not started); once it is written, the fork begins.
 */
import type { AnyMessage } from "@agentclientprotocol/sdk/unstable";
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { createAgentApp } from "../../src/acp/agent-app.ts";
import { engineDeps } from "../../src/core/engine-deps.ts";
import { until } from "../support/acp-session.ts";
import { sandbox } from "../support/workspace.ts";

type Message = AnyMessage & { id?: unknown; result?: unknown; error?: unknown; method?: string };

/**
 * An in-process agent whose stream to the client holds the response to `heldId` until
 * `release()`; every message the agent writes is kept, in order.
 */
function agentHolding(env: Record<string, string>, heldId: number) {
  const deps = engineDeps(env);
  const app = createAgentApp(deps);
  const toAgent = new TransformStream<AnyMessage, AnyMessage>();
  const written: Message[] = [];
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const writable = new WritableStream<AnyMessage>({
    write: async (message: Message) => {
      if (message.id === heldId && !("method" in message)) await released;
      written.push(message);
    },
  });
  app.connect({ readable: toAgent.readable, writable });
  const input = toAgent.writable.getWriter();
  const request = (id: number, method: string, params: unknown) =>
    input.write({ jsonrpc: "2.0", id, method, params } as AnyMessage);
  const response = async (id: number) => {
    await until(() => written.some((m) => m.id === id && !("method" in m)), `the response to ${id}`);
    const answer = written.find((m) => m.id === id && !("method" in m))!;
    expect(answer.error).toBeUndefined();
    return answer.result as Record<string, unknown>;
  };
  const close = async () => {
    release();
    await app.closeAll();
    await input.close().catch(() => undefined);
    await deps.store.close();
  };
  return { request, response, release, written, close };
}

describe("a fork's follow-up work", () => {
  test("starts once the fork's response is written, never while the response waits", async () => {
    const box = sandbox("scripted/echo");
    const started = join(box.root, "mcp-server-started");
    // An MCP server that only says it was started (and never answers): it marks when the fork begins.
    const server = {
      name: "marker",
      command: "/bin/sh",
      args: ["-c", `: > '${started}'; exec cat > /dev/null`],
      env: [],
    };
    const FORK = 3;
    const agent = agentHolding(box.env, FORK);
    try {
      await agent.request(1, "initialize", { protocolVersion: 1, clientCapabilities: {} });
      await agent.response(1);
      await agent.request(2, "session/new", { cwd: box.workspace, mcpServers: [] });
      const { sessionId } = await agent.response(2);
      await agent.request(FORK, "session/fork", { sessionId, cwd: box.workspace, mcpServers: [server] });
      // Long enough for a timer-ordered begin to have started the server many times over.
      await Bun.sleep(1_000);
      expect(existsSync(started)).toBe(false);
      agent.release();
      const forked = await agent.response(FORK);
      expect(forked.sessionId).not.toBe(sessionId);
      await until(() => existsSync(started), "the fork's MCP server to start");
    } finally {
      await agent.close();
    }
  });
});
