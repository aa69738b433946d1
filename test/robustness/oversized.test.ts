/**
 * Lines over the message size limit, over stdio against the real binary: answered with an error,
 * never the end of the connection. The limit is lowered with VERBATIM_MAX_MESSAGE_BYTES so the
 * tests need not send 32 MiB.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { initializedRawAgent, type RawAgent, type RawMessage } from "../support/raw-client.ts";
import { sandbox } from "../support/workspace.ts";

const LIMIT = 64 * 1024;
const filler = (bytes: number) => "x".repeat(bytes);

describe("an oversized request", () => {
  const box = sandbox("scripted/plain");
  let agent: RawAgent;
  beforeAll(async () => {
    agent = await initializedRawAgent({ ...box.env, VERBATIM_MAX_MESSAGE_BYTES: String(LIMIT) });
  });
  afterAll(async () => {
    await agent.close();
  });

  test("is answered -32600 with its id, saying it is too large, and the next request is answered", async () => {
    void agent.send(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 71,
        method: "session/new",
        params: { cwd: box.workspace, mcpServers: [], _meta: { pad: filler(LIMIT) } },
      }),
    );
    const reply = await agent.response(71);
    expect(reply.error?.code).toBe(-32600);
    expect(reply.error?.message).toContain("message too large");
    expect(reply.error?.data).toMatchObject({ reason: "message_too_large", limit: LIMIT });
    const after = await agent.request("session/list", {});
    expect(after.result).toEqual({ sessions: [] });
  });

  test("without an id at its start is answered with id null", async () => {
    const before = agent.responses(null).length;
    void agent.send(
      `{"jsonrpc":"2.0","method":"session/new","params":{"cwd":"${filler(LIMIT)}","mcpServers":[]},"id":72}`,
    );
    await agent.until(() => agent.responses(null).length > before, "the null-id answer");
    expect(agent.responses(null).at(-1)?.error?.data).toMatchObject({ reason: "message_too_large" });
    expect(agent.responses(72)).toEqual([]);
  });

  test("sent in many small writes is answered once, with its whole size", async () => {
    const line = JSON.stringify({
      jsonrpc: "2.0",
      id: 73,
      method: "session/list",
      params: { _meta: { pad: filler(3 * LIMIT) } },
    });
    for (let at = 0; at < line.length; at += 5000)
      await agent.sendBytes(new TextEncoder().encode(line.slice(at, at + 5000)));
    await agent.sendBytes(new Uint8Array([0x0a]));
    const reply = await agent.response(73);
    expect(reply.error?.data).toEqual({ reason: "message_too_large", bytes: line.length, limit: LIMIT });
    expect(agent.responses(73)).toHaveLength(1);
  });

  test("writes no journal, and leaves the agent running", async () => {
    expect(existsSync(join(box.home, "journal.db"))).toBe(false);
    expect(agent.alive()).toBe(true);
    expect(agent.garbled).toEqual([]);
  });
});

describe("an oversized answer from the client", () => {
  test("fails the call that asked for it, and the turn goes on to its end", async () => {
    const box = sandbox("scripted/tool");
    const agent = await initializedRawAgent(
      { ...box.env, VERBATIM_MAX_MESSAGE_BYTES: String(LIMIT) },
      { fs: { readTextFile: true } },
    );
    try {
      const created = await agent.request("session/new", { cwd: box.workspace, mcpServers: [] });
      const sessionId = (created.result as { sessionId: string }).sessionId;
      void agent.send(
        JSON.stringify({
          jsonrpc: "2.0",
          id: 81,
          method: "session/prompt",
          params: { sessionId, prompt: [{ type: "text", text: "Read it" }] },
        }),
      );
      await agent.until(
        () => agent.messages.some((m) => m.method === "fs/read_text_file"),
        "the agent's fs/read_text_file request",
      );
      const asked = agent.messages.find((m) => m.method === "fs/read_text_file") as RawMessage;
      void agent.send(JSON.stringify({ jsonrpc: "2.0", id: asked.id, result: { content: filler(2 * LIMIT) } }));
      const reply = await agent.response(81);
      expect(reply.result).toEqual({ stopReason: "end_turn" });
      const failed = agent.messages
        .filter((m) => m.method === "session/update")
        .map((m) => (m.params as { update: { sessionUpdate: string; status?: string } }).update)
        .find((u) => u.sessionUpdate === "tool_call_update" && u.status === "failed");
      expect(JSON.stringify(failed)).toContain("message too large");
    } finally {
      await agent.close();
    }
  });
});
