/** Bad input gets a precise error, the connection stays up, and nothing is written. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { initializedRawAgent, rawAgent, type RawAgent } from "../support/raw-client.ts";
import { sandbox } from "../support/workspace.ts";

describe("bad input over stdio", () => {
  const box = sandbox("scripted/plain");
  let agent: RawAgent;
  beforeAll(async () => {
    agent = await initializedRawAgent(box.env);
  });
  afterAll(async () => {
    await agent.close();
  });

  test("an unknown session id is -32002 with the session id", async () => {
    const reply = await agent.request("session/load", { sessionId: "ses_unknown", cwd: box.workspace, mcpServers: [] });
    expect(reply.error?.code).toBe(-32002);
    expect(reply.error?.data).toMatchObject({ sessionId: "ses_unknown" });
    const prompt = await agent.request("session/prompt", {
      sessionId: "ses_unknown",
      prompt: [{ type: "text", text: "hi" }],
    });
    expect(prompt.error?.code).toBe(-32002);
  });

  test("invalid params are -32602", async () => {
    const reply = await agent.request("session/new", { cwd: 42, mcpServers: [] });
    expect(reply.error?.code).toBe(-32602);
    const relative = await agent.request("session/new", { cwd: "relative/dir", mcpServers: [] });
    expect(relative.error?.code).toBe(-32602);
    expect(relative.error?.message).toContain("absolute");
  });

  test("a malformed JSON line is -32700 and the connection stays up", async () => {
    agent.send("{this is not json");
    const parseError = await agent.response(null);
    expect(parseError.error?.code).toBe(-32700);
    const after = await agent.request("session/list", {});
    expect(after.result).toBeDefined();
  });

  test("session ids with path characters are refused before they reach storage", async () => {
    for (const sessionId of ["../../etc/passwd", "/abs/path", "a\u0000b", "x".repeat(500), "dir/ses"]) {
      const reply = await agent.request("session/load", { sessionId, cwd: box.workspace, mcpServers: [] });
      expect(reply.error?.code).toBe(-32602);
    }
  });

  test("an unknown method is -32601", async () => {
    const reply = await agent.request("session/teleport", {});
    expect(reply.error?.code).toBe(-32601);
  });

  test("a prompt with an unsupported content block is -32602 and records nothing", async () => {
    const created = await agent.request("session/new", { cwd: box.workspace, mcpServers: [] });
    const sessionId = (created.result as { sessionId: string }).sessionId;
    const reply = await agent.request("session/prompt", {
      sessionId,
      prompt: [{ type: "audio", data: "AAAA", mimeType: "audio/wav" }],
    });
    expect(reply.error?.code).toBe(-32602);
    expect(reply.error?.message).toContain("audio");
    const list = await agent.request("session/list", {});
    const session = (list.result as { sessions: { sessionId: string; title?: string }[] }).sessions.find(
      (s) => s.sessionId === sessionId,
    );
    expect(session?.title).toBeUndefined();
  });

  test("none of it crashed the agent", async () => {
    const reply = await agent.request("session/list", {});
    expect(reply.result).toBeDefined();
  });
});

describe("before initialize", () => {
  test("a request before initialize is refused and writes nothing", async () => {
    const box = sandbox("scripted/plain");
    const agent = rawAgent(box.env);
    try {
      const reply = await agent.request("session/new", { cwd: box.workspace, mcpServers: [] });
      expect(reply.error?.code).toBe(-32600);
      expect(reply.error?.message).toContain("initialize");
      expect(existsSync(join(box.home, "journal.db"))).toBe(false);
      const init = await agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      expect(init.result).toMatchObject({ protocolVersion: 1 });
    } finally {
      await agent.close();
    }
  });
});

describe("without a configured provider", () => {
  test("initialize succeeds and session/new asks for authentication with what to set", async () => {
    const box = sandbox("scripted/plain");
    const agent = rawAgent({ ...box.env, VERBATIM_MODEL: "" });
    try {
      const init = await agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      expect(init.result).toMatchObject({ protocolVersion: 1, agentCapabilities: { loadSession: true } });
      const reply = await agent.request("session/new", { cwd: box.workspace, mcpServers: [] });
      expect(reply.error?.code).toBe(-32000);
      expect(reply.error?.message).toContain("VERBATIM_MODEL");
    } finally {
      await agent.close();
    }
  });
});
