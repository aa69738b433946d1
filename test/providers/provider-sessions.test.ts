/**
 * Real adapters inside real sessions (in process, fixture server on loopback): retries are
 * visible, usage carries the window and the cost, stop reasons reach the client, and no secret
 * is ever journaled.
 */
import type { SessionNotification } from "@agentclientprotocol/sdk";
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { journalFile } from "../../src/journal/paths.ts";
import { texts } from "../parity/harness.ts";
import { connectInProcess, load, newSession, prompt } from "../support/acp-session.ts";
import { dumpDatabase } from "../support/db-dump.ts";
import { fixtureServer } from "../support/fixture-server.ts";
import { anthropicKit, chatKit, kits, modelRef, responsesKit, type Kit } from "../support/provider-kits.ts";
import { sandbox } from "../support/workspace.ts";

async function session(kit: Kit, extraEnv: Record<string, string> = {}) {
  const server = fixtureServer();
  const box = sandbox(modelRef(kit));
  const c = await connectInProcess({ ...box.env, ...kit.env(server), ...extraEnv });
  const { sessionId } = await newSession(c.ctx, box.workspace);
  return { server, box, c, sessionId };
}

const updates = (ns: SessionNotification[], kind: string) =>
  ns.map((n) => n.update).filter((u) => u.sessionUpdate === kind);

describe.each(kits)("a $kind session", (kit) => {
  test("a 429 before any output is retried after a visible notice, then the answer streams", async () => {
    const { server, c, sessionId } = await session(kit);
    try {
      server.enqueue(kit.rateLimited(), { sse: kit.text("Here after a retry.") });
      expect((await prompt(c.ctx, sessionId, "Hi")).stopReason).toBe("end_turn");
      const [notice, answer] = texts(c.client.view(sessionId), "agent");
      expect(notice).toStartWith("The model provider failed (");
      expect(notice).toContain("retrying in 0ms");
      expect(answer).toBe("Here after a retry.");
      expect(server.requests.length).toBe(2);
    } finally {
      await c.close();
    }
  });

  test("the output limit ends the turn max_tokens, with what was written kept", async () => {
    const { server, c, sessionId } = await session(kit);
    try {
      server.enqueue({ sse: kit.maxTokens("Cut off at the") });
      expect((await prompt(c.ctx, sessionId, "Go")).stopReason).toBe("max_tokens");
      expect(texts(c.client.view(sessionId), "agent")).toEqual(["Cut off at the"]);
    } finally {
      await c.close();
    }
  });
});

describe("a session reopened where its provider is not configured", () => {
  test("keeps the model it recorded, and a prompt says what to configure instead of using another model", async () => {
    const { server, box, c, sessionId } = await session(anthropicKit);
    server.enqueue({ sse: anthropicKit.text("ok") });
    await prompt(c.ctx, sessionId, "Hi");
    await c.close();
    const other = await connectInProcess({ ...box.env, VERBATIM_MODEL: "", OPENAI_API_KEY: "sk-other" });
    try {
      const loaded = await load(other.ctx, sessionId, box.workspace);
      const model = loaded.configOptions?.find((o) => o.id === "model");
      expect(model?.type === "select" ? model.currentValue : undefined).toBe("anthropic/claude-sonnet-4-6");
      await expect(prompt(other.ctx, sessionId, "Again")).rejects.toMatchObject({ code: -32603 });
      const notice = texts(other.client.view(sessionId), "agent").at(-1);
      expect(notice).toBe(
        'The model anthropic/claude-sonnet-4-6 is not configured in this verbatim process. Configure its provider (see verbatim\'s README, "Models and providers"), or choose one of the listed models for this session.',
      );
      expect(server.requests.length).toBe(1);
    } finally {
      await other.close();
    }
  });
});

describe("usage", () => {
  test("carries the model's context window and, where the price is known, the cost", async () => {
    const { server, c, sessionId } = await session(anthropicKit);
    try {
      server.enqueue({ sse: anthropicKit.text("ok") });
      await prompt(c.ctx, sessionId, "Hi");
      // 120 input tokens at $3 and 40 output tokens at $15 per million.
      expect(updates(c.client.notifications, "usage_update")).toEqual([
        { sessionUpdate: "usage_update", used: 160, size: 1_000_000, cost: { amount: 0.00096, currency: "USD" } },
      ]);
    } finally {
      await c.close();
    }
  });

  test("the cost shown is the session's so far (ACP's is cumulative), and a reopen shows the same", async () => {
    const { server, box, c, sessionId } = await session(anthropicKit);
    server.enqueue({ sse: anthropicKit.text("one") }, { sse: anthropicKit.text("two") });
    await prompt(c.ctx, sessionId, "Hi");
    await prompt(c.ctx, sessionId, "Again");
    const live = updates(c.client.notifications, "usage_update");
    await c.close();
    expect(live.map((u) => u.sessionUpdate === "usage_update" && u.cost)).toEqual([
      { amount: 0.00096, currency: "USD" },
      { amount: 0.00192, currency: "USD" },
    ]);
    const reopened = await connectInProcess({ ...box.env, ...anthropicKit.env(server) });
    try {
      await load(reopened.ctx, sessionId, box.workspace);
      expect(updates(reopened.client.notifications, "usage_update")).toEqual(live);
    } finally {
      await reopened.close();
    }
  });

  test("a compaction's cost is part of the session's, shown with the next step's usage", async () => {
    const { server, c, sessionId } = await session(anthropicKit);
    try {
      server.enqueue(
        { sse: anthropicKit.text("one") },
        { sse: anthropicKit.text("The summary.") },
        { sse: anthropicKit.text("two") },
      );
      await prompt(c.ctx, sessionId, "Hi");
      await prompt(c.ctx, sessionId, "/compact");
      await prompt(c.ctx, sessionId, "Again");
      expect(server.requests.length).toBe(3);
      // Three calls of 120 input and 40 output tokens: the step, the compaction, the step.
      expect(updates(c.client.notifications, "usage_update").at(-1)).toEqual({
        sessionUpdate: "usage_update",
        used: 160,
        size: 1_000_000,
        cost: { amount: 0.00288, currency: "USD" },
      });
    } finally {
      await c.close();
    }
  });

  test("a subagent's cost is part of its parent's, shown with the parent's next step's usage", async () => {
    const { server, c, sessionId } = await session(anthropicKit);
    try {
      const task = {
        id: "toolu_task_1",
        name: "Task",
        input: { description: "Look around", prompt: "List the files.", subagent_type: "general-purpose" },
      };
      server.enqueue(
        { sse: anthropicKit.calls([task]) },
        { sse: anthropicKit.text("The report.") },
        { sse: anthropicKit.text("Done.") },
      );
      expect((await prompt(c.ctx, sessionId, "Delegate")).stopReason).toBe("end_turn");
      expect(server.requests.length).toBe(3);
      // The parent's two steps and the subagent's one, each 120 input and 40 output tokens.
      expect(
        updates(
          c.client.notifications.filter((n) => n.sessionId === sessionId),
          "usage_update",
        ).at(-1),
      ).toEqual({
        sessionUpdate: "usage_update",
        used: 160,
        size: 1_000_000,
        cost: { amount: 0.00288, currency: "USD" },
      });
    } finally {
      await c.close();
    }
  });

  test("a local model has the configured window and no cost", async () => {
    const { server, box, c } = await session(chatKit);
    await c.close();
    mkdirSync(join(box.configHome, "verbatim"));
    writeFileSync(
      join(box.configHome, "verbatim", "config.json"),
      JSON.stringify({ providers: { "openai-chat": { models: { "qwen3:8b": { contextWindow: 40_960 } } } } }),
    );
    const again = await connectInProcess({ ...box.env, ...chatKit.env(server) });
    try {
      const { sessionId } = await newSession(again.ctx, box.workspace);
      server.enqueue({ sse: chatKit.text("ok") });
      await prompt(again.ctx, sessionId, "Hi");
      expect(updates(again.client.notifications, "usage_update")).toEqual([
        { sessionUpdate: "usage_update", used: 120, size: 40_960 },
      ]);
    } finally {
      await again.close();
    }
  });
});

describe("secrets", () => {
  test.each([anthropicKit, responsesKit])(
    "the $kind API key is sent to the provider and never journaled",
    async (kit) => {
      const { server, box, c, sessionId } = await session(kit);
      try {
        server.enqueue({ sse: kit.text("ok") });
        await prompt(c.ctx, sessionId, "Hi");
        expect(JSON.stringify(server.requests[0]?.headers)).toContain(kit.apiKey!);
      } finally {
        await c.close();
      }
      const dump = JSON.stringify(dumpDatabase(journalFile(box.home)));
      expect(dump).toContain("Hi");
      expect(dump).not.toContain(kit.apiKey!);
    },
  );

  test("a key from the config file is never journaled either", async () => {
    const server = fixtureServer();
    const box = sandbox("");
    mkdirSync(join(box.configHome, "verbatim"));
    const secret = "sk-from-config-file-9f8e7d";
    writeFileSync(
      join(box.configHome, "verbatim", "config.json"),
      JSON.stringify({
        model: "lab/qwen3:8b",
        providers: { lab: { type: "openai-chat", baseUrl: `${server.origin}/v1`, apiKey: secret } },
      }),
    );
    const c = await connectInProcess(box.env);
    try {
      const { sessionId } = await newSession(c.ctx, box.workspace);
      server.enqueue({ sse: chatKit.text("ok") });
      await prompt(c.ctx, sessionId, "Hi");
      expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${secret}`);
    } finally {
      await c.close();
    }
    expect(JSON.stringify(dumpDatabase(journalFile(box.home)))).not.toContain(secret);
  });
});
