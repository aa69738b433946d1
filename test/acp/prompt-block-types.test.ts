/**
 * A prompt of each content block type, over stdio: accepted (echoed exactly as received and
 * recorded) when verbatim advertises it in `initialize` (or it is baseline: text and
 * resource_link), otherwise refused with -32602 naming the block, before anything is recorded.
 * Which is which is read from the `initialize` answer, so advertising a type without accepting
 * it (or the reverse) fails here.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { initializedRawAgent, rawAgent, type RawAgent, type RawMessage } from "../support/raw-client.ts";
import { sandbox } from "../support/workspace.ts";

type PromptCapabilities = { image?: boolean; audio?: boolean; embeddedContext?: boolean };

const blocks: Record<string, { block: Record<string, unknown>; gate?: keyof PromptCapabilities }> = {
  text: { block: { type: "text", text: "What is in here?" } },
  image: {
    block: { type: "image", mimeType: "image/png", data: Buffer.from("\x89PNG stand-in").toString("base64") },
    gate: "image",
  },
  audio: {
    block: { type: "audio", mimeType: "audio/wav", data: Buffer.from("RIFF stand-in").toString("base64") },
    gate: "audio",
  },
  resource_link: {
    block: { type: "resource_link", uri: "file:///tmp/notes.md", name: "notes.md", mimeType: "text/markdown" },
  },
  "resource (text)": {
    block: {
      type: "resource",
      resource: { uri: "file:///tmp/a.md", mimeType: "text/markdown", text: "# A\n\nattached" },
    },
    gate: "embeddedContext",
  },
  "resource (blob)": {
    block: {
      type: "resource",
      resource: { uri: "file:///tmp/a.bin", mimeType: "application/octet-stream", blob: "AAECAwQ=" },
    },
    gate: "embeddedContext",
  },
};

describe("prompts with each content block type", () => {
  const box = sandbox("scripted/plain");
  let agent: RawAgent;
  let advertised: PromptCapabilities;
  let sessionId: string;
  beforeAll(async () => {
    agent = rawAgent(box.env);
    const init = await agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
    advertised =
      (init.result as { agentCapabilities: { promptCapabilities?: PromptCapabilities } }).agentCapabilities
        .promptCapabilities ?? {};
    sessionId = (
      (await agent.request("session/new", { cwd: box.workspace, mcpServers: [] })).result as { sessionId: string }
    ).sessionId;
  });
  afterAll(async () => {
    await agent.close();
  });

  const promptsRecorded = () => {
    const db = new Database(join(box.home, "journal.db"), { readonly: true });
    try {
      return (
        db
          .query<{ n: number }, [string]>(
            "SELECT COUNT(*) AS n FROM facts WHERE session_id = ? AND kind = 'prompt_received'",
          )
          .get(sessionId)?.n ?? 0
      );
    } finally {
      db.close();
    }
  };
  const echoes = (id: number | string) => {
    const answered = agent.messages.findIndex((m) => m.id === id && m.method === undefined);
    return agent.messages
      .slice(0, answered)
      .filter(
        (m): m is RawMessage & { params: { update: { sessionUpdate: string; content: unknown } } } =>
          m.method === "session/update",
      )
      .map((m) => m.params.update)
      .filter((u) => u.sessionUpdate === "user_message_chunk")
      .map((u) => u.content);
  };

  test("verbatim advertises images and embedded context, not audio", () => {
    expect(advertised).toEqual({ image: true, audio: false, embeddedContext: true });
  });

  let serial = 0;
  for (const [name, { block, gate }] of Object.entries(blocks)) {
    test(`${name} blocks are ${gate ? "accepted exactly when advertised" : "always accepted (baseline)"}`, async () => {
      const before = promptsRecorded();
      const id = `prompt-${++serial}`;
      const reply = await agent.request(
        "session/prompt",
        { sessionId, prompt: [{ type: "text", text: "See:" }, block] },
        id,
      );
      if (!gate || advertised[gate]) {
        expect(reply.result).toEqual({ stopReason: "end_turn" });
        expect(promptsRecorded()).toBe(before + 1);
        // Echoed exactly as received, every block of the prompt.
        expect(echoes(id).slice(-2)).toEqual([{ type: "text", text: "See:" }, block]);
      } else {
        expect(reply.error?.code).toBe(-32602);
        expect(reply.error?.message).toBe(
          `Invalid params: prompt block 1 has type "${block.type as string}", which verbatim does not accept; send text, image, resource_link or resource blocks`,
        );
        expect(reply.error?.data).toMatchObject({ index: 1, type: block.type });
        expect(promptsRecorded()).toBe(before);
      }
    });
  }

  test("a block of a type ACP does not define is refused with -32602 naming the block, and nothing is recorded", async () => {
    const before = promptsRecorded();
    for (const block of [
      { type: "video", uri: "file:///v.mp4" },
      { type: "", text: "x" },
      { type: "TEXT", text: "x" },
      { text: "no type" },
    ]) {
      const reply = await agent.request("session/prompt", {
        sessionId,
        prompt: [{ type: "text", text: "See:" }, block],
      });
      expect({ block, code: reply.error?.code }).toEqual({ block, code: -32602 });
      // The SDK's schema check names the block and the types ACP defines.
      expect((reply.error?.data as { prompt?: Record<string, unknown> }).prompt?.["1"]).toBeDefined();
    }
    expect(promptsRecorded()).toBe(before);
  });

  test("a known block missing what its type requires is refused with -32602, and nothing is recorded", async () => {
    const before = promptsRecorded();
    for (const block of [
      { type: "text" },
      { type: "image", mimeType: "image/png" },
      { type: "resource_link", name: "n" },
      { type: "resource", resource: { text: "no uri" } },
      { type: "text", text: 42 },
    ]) {
      const reply = await agent.request("session/prompt", { sessionId, prompt: [block] });
      expect({ block, code: reply.error?.code }).toEqual({ block, code: -32602 });
    }
    expect(promptsRecorded()).toBe(before);
  });

  test("an empty prompt is refused with -32602, and nothing is recorded", async () => {
    const before = promptsRecorded();
    const reply = await agent.request("session/prompt", { sessionId, prompt: [] });
    expect(reply.error?.code).toBe(-32602);
    expect(reply.error?.message).toContain("the prompt is empty");
    expect(promptsRecorded()).toBe(before);
  });
});

describe("the block check against a client that sends anyway", () => {
  test("an audio block after accepted ones refuses the whole prompt: no block of it is shown or recorded", async () => {
    const box = sandbox("scripted/plain");
    const agent = await initializedRawAgent(box.env);
    try {
      const sessionId = (
        (await agent.request("session/new", { cwd: box.workspace, mcpServers: [] })).result as { sessionId: string }
      ).sessionId;
      const reply = await agent.request("session/prompt", {
        sessionId,
        prompt: [blocks.text?.block, blocks.image?.block, blocks.audio?.block],
      });
      expect(reply.error?.code).toBe(-32602);
      expect(
        agent.messages.filter(
          (m) =>
            m.method === "session/update" &&
            (m.params as { update: { sessionUpdate: string } }).update.sessionUpdate === "user_message_chunk",
        ),
      ).toEqual([]);
    } finally {
      await agent.close();
    }
  });
});
