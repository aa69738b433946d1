/**
 * What editors' history views and JetBrains AIR rely on: the replay-end marker after a load (AIR
 * only, never journaled), `$/cancel_request` for a pending load or list, and `verbatim sessions`
 * leaving out sessions without a prompt.
 */
import { describe, expect, test } from "bun:test";
import * as acp from "@agentclientprotocol/sdk";
import { agentCommand } from "../../src/client/spawn-agent.ts";
import { journalFile } from "../../src/journal/paths.ts";
import { SqliteJournal } from "../../src/journal/sqlite-store.ts";
import { connectProcess, newSession, prompt } from "../support/acp-session.ts";
import { runCli } from "../support/cli-process.ts";
import { dumpDatabase } from "../support/db-dump.ts";
import { startFact } from "../support/journal.ts";
import { rawAgent, type RawAgent, type RawMessage } from "../support/raw-client.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";

/** A session with one prompt and its answer, made through a spawned agent. */
async function oneTurn(box: Sandbox): Promise<string> {
  const c = await connectProcess(box.env);
  try {
    const { sessionId } = await newSession(c.ctx, box.workspace);
    await prompt(c.ctx, sessionId, "Read the README");
    return sessionId;
  } finally {
    await c.close();
  }
}

const updatesOf = (agent: RawAgent, sessionId: string) =>
  agent.messages.filter(
    (m) => m.method === "session/update" && (m.params as { sessionId: string }).sessionId === sessionId,
  );

const isReplayEnd = (m: RawMessage) => {
  const update = (
    m.params as { update: { sessionUpdate: string; _meta?: { jetbrains?: { air?: { loadReplayEnd?: boolean } } } } }
  ).update;
  return update.sessionUpdate === "session_info_update" && update._meta?.jetbrains?.air?.loadReplayEnd === true;
};

async function loadedBy(box: Sandbox, sessionId: string, clientInfo: unknown, clientCapabilities: unknown = {}) {
  const agent = rawAgent(box.env);
  try {
    await agent.request("initialize", {
      protocolVersion: 1,
      clientCapabilities,
      ...(clientInfo ? { clientInfo } : {}),
    });
    const response = await agent.request("session/load", { sessionId, cwd: box.workspace, mcpServers: [] }, "load");
    expect(response.error).toBeUndefined();
    const responseAt = agent.messages.indexOf(response);
    return { updates: updatesOf(agent, sessionId).filter((m) => agent.messages.indexOf(m) < responseAt) };
  } finally {
    await agent.close();
  }
}

describe("the replay-end marker for JetBrains AIR", () => {
  test("follows the last replayed update of a load for a client whose clientInfo names JetBrains AIR, and is never journaled", async () => {
    const box = sandbox("scripted/demo");
    const sessionId = await oneTurn(box);
    const before = dumpDatabase(journalFile(box.home));
    const { updates } = await loadedBy(box, sessionId, { name: "JetBrains AIR", version: "1.0" });
    expect(updates.filter(isReplayEnd)).toHaveLength(1);
    expect(isReplayEnd(updates.at(-1)!)).toBe(true);
    expect(updates.length).toBeGreaterThan(2);
    expect(dumpDatabase(journalFile(box.home))).toEqual(before);
  });

  test("goes to a client that declares AIR's loadReplayEnd extension", async () => {
    const box = sandbox("scripted/demo");
    const sessionId = await oneTurn(box);
    const capabilities = { _meta: { jetbrains: { air: { version: 1, capabilities: ["loadReplayEnd"] } } } };
    const { updates } = await loadedBy(box, sessionId, { name: "some-ide", version: "1" }, capabilities);
    expect(isReplayEnd(updates.at(-1)!)).toBe(true);
  });

  test("is not sent to other clients", async () => {
    const box = sandbox("scripted/demo");
    const sessionId = await oneTurn(box);
    for (const info of [
      undefined,
      { name: "zed", version: "1" },
      { name: "JetBrains IDE", title: "IntelliJ IDEA", version: "1" },
    ]) {
      const { updates } = await loadedBy(box, sessionId, info);
      expect(updates.filter(isReplayEnd)).toEqual([]);
    }
  });
});

/** A session of `count` one-chunk messages, written straight into the journal. */
function bigSession(box: Sandbox, count: number): string {
  const journal = new SqliteJournal(journalFile(box.home));
  const sessionId = "ses_big";
  const at = new Date().toISOString();
  journal.create(
    { sessionId, cwd: box.workspace, additionalDirectories: [], createdAt: at, updatedAt: at },
    startFact(box.workspace),
  );
  journal.append(
    sessionId,
    2,
    { kind: "prompt_received", turnId: "turn_1", messageId: "msg_p", blocks: [{ type: "text", text: "Talk" }] },
    at,
  );
  const facts = Array.from({ length: count }, (_, i) => ({
    fact: {
      kind: "message_chunk" as const,
      stepId: `step_${i}`,
      messageId: `msg_${i}`,
      stream: "answer" as const,
      text: `Message ${i}. `.repeat(8),
    },
    at,
  }));
  journal.appendMany(sessionId, 3, facts);
  journal.append(
    sessionId,
    count + 3,
    { kind: "turn_ended", turnId: "turn_1", outcome: "completed", stopReason: "end_turn" },
    at,
  );
  journal.release(sessionId);
  journal.close();
  return sessionId;
}

/** A spawned agent whose output is read only as far as the test asks (its updates counted). */
function slowReader(box: Sandbox) {
  const child = Bun.spawn(agentCommand(), {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "ignore",
    env: { ...process.env, ...box.env },
  });
  const reader = child.stdout.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let updates = 0;
  return {
    write: async (message: unknown) => {
      child.stdin.write(`${JSON.stringify(message)}\n`);
      await child.stdin.flush();
    },
    /** Reads messages until one matches (counting the session updates read on the way). */
    readUntil: async (match: (m: RawMessage) => boolean): Promise<RawMessage> => {
      for (;;) {
        let nl: number;
        while ((nl = buffer.indexOf("\n")) >= 0) {
          const message = JSON.parse(buffer.slice(0, nl)) as RawMessage;
          buffer = buffer.slice(nl + 1);
          if (message.method === "session/update") updates++;
          if (match(message)) return message;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error("the agent closed its output");
        buffer += decoder.decode(value, { stream: true });
      }
    },
    updates: () => updates,
    kill: () => child.kill(),
  };
}

describe("$/cancel_request", () => {
  test("stops a session/load under way: it answers cancelled, the session is not opened, and a new load replays it whole", async () => {
    const box = sandbox("scripted/plain");
    const count = 30_000;
    const sessionId = bigSession(box, count);
    const agent = slowReader(box);
    try {
      await agent.write({
        jsonrpc: "2.0",
        id: "init",
        method: "initialize",
        params: { protocolVersion: 1, clientCapabilities: {} },
      });
      await agent.readUntil((m) => m.id === "init");
      // The engine is loaded first, so that the load below starts replaying at once.
      await agent.write({ jsonrpc: "2.0", id: "list", method: "session/list", params: {} });
      await agent.readUntil((m) => m.id === "list");
      await agent.write({
        jsonrpc: "2.0",
        id: "load-1",
        method: "session/load",
        params: { sessionId, cwd: box.workspace, mcpServers: [] },
      });
      await Bun.sleep(50);
      await agent.write({ jsonrpc: "2.0", method: "$/cancel_request", params: { requestId: "load-1" } });
      const cancelled = await agent.readUntil((m) => m.id === "load-1");
      expect(cancelled.error?.code).toBe(-32800);
      const shown = agent.updates();
      expect(shown).toBeLessThan(count);
      await agent.write({
        jsonrpc: "2.0",
        id: "prompt",
        method: "session/prompt",
        params: { sessionId, prompt: [{ type: "text", text: "Hi" }] },
      });
      expect((await agent.readUntil((m) => m.id === "prompt")).error).toBeDefined();
      await agent.write({
        jsonrpc: "2.0",
        id: "load-2",
        method: "session/load",
        params: { sessionId, cwd: box.workspace, mcpServers: [] },
      });
      expect((await agent.readUntil((m) => m.id === "load-2")).error).toBeUndefined();
      expect(agent.updates() - shown).toBe(count + 1);
    } finally {
      agent.kill();
    }
  }, 60_000);

  test("answers a pending session/list cancelled", async () => {
    const box = sandbox("scripted/plain");
    const agent = rawAgent(box.env);
    try {
      await agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
      await agent.send(
        `${JSON.stringify({ jsonrpc: "2.0", id: "list-1", method: "session/list", params: {} })}\n` +
          JSON.stringify({ jsonrpc: "2.0", method: "$/cancel_request", params: { requestId: "list-1" } }),
      );
      expect((await agent.response("list-1")).error?.code).toBe(-32800);
      const after = await agent.request("session/list", {});
      expect(after.result).toEqual({ sessions: [] });
    } finally {
      await agent.close();
    }
  });
});

describe("verbatim sessions", () => {
  test("leaves out sessions that never received a prompt, as session/list does", async () => {
    const box = sandbox("scripted/demo");
    const kept = await oneTurn(box);
    const c = await connectProcess(box.env);
    let empty = "";
    try {
      empty = (await newSession(c.ctx, box.workspace)).sessionId;
      const { sessions } = await c.ctx.request(acp.methods.agent.session.list, {});
      expect(sessions.map((s) => s.sessionId)).toEqual([kept]);
      expect(sessions[0]?._meta?.verbatim).toMatchObject({ state: "idle", lastTurnEndedAt: expect.any(String) });
    } finally {
      await c.close();
    }
    const { stdout } = await runCli(["sessions"], box.env);
    expect(stdout).toContain(kept);
    expect(stdout).not.toContain(empty);
  });
});
