/** What a turn shows, in which order, with which ids; and how turns meet each other. */
import * as acp from "@agentclientprotocol/sdk";
import type { SessionNotification } from "@agentclientprotocol/sdk";
import { describe, expect, test } from "bun:test";
import { connectInProcess, connectProcess, errorOf, load, newSession, prompt, until } from "../support/acp-session.ts";
import { conversation } from "../../src/replay/conversation.ts";
import { storedFacts } from "../support/golden-journals.ts";
import { sandbox } from "../support/workspace.ts";
import { cards, texts } from "../parity/harness.ts";

const kinds = (ns: SessionNotification[]) => ns.map((n) => n.update.sessionUpdate);
const idOf = (n: SessionNotification) => ("messageId" in n.update ? n.update.messageId : undefined);

async function session(model: string) {
  const box = sandbox(model);
  const c = await connectInProcess(box.env);
  const { sessionId } = await newSession(c.ctx, box.workspace);
  return { box, c, sessionId };
}

describe("message ids", () => {
  test("the prompt is echoed first, one user chunk per block, all with one engine-minted id", async () => {
    const { c, sessionId } = await session("scripted/plain");
    try {
      await c.ctx.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [
          { type: "text", text: "Look at " },
          { type: "resource_link", uri: "file:///x/a.ts", name: "a.ts" },
        ],
      });
      // The session's slash commands went out after session/new, before the turn: the turn starts with the echo.
      const [first, second] = c.client.notifications.filter(
        (n) => n.update.sessionUpdate !== "available_commands_update",
      );
      expect(kinds([first!, second!])).toEqual(["user_message_chunk", "user_message_chunk"]);
      expect(first!.update).toMatchObject({ content: { type: "text", text: "Look at " } });
      expect(second!.update).toMatchObject({ content: { type: "resource_link", uri: "file:///x/a.ts", name: "a.ts" } });
      expect(idOf(first!)).toMatch(/^msg_/);
      expect(idOf(second!)).toBe(idOf(first!)!);
    } finally {
      await c.close();
    }
  });

  test("every message chunk carries an id; thinking and answer have their own, new after a tool call", async () => {
    const { c, sessionId } = await session("scripted/demo");
    try {
      await prompt(c.ctx, sessionId, "Overview");
      const chunks = c.client.notifications.filter((n) => n.update.sessionUpdate.endsWith("_chunk"));
      expect(chunks.every((n) => typeof idOf(n) === "string")).toBe(true);
      const view = c.client.view(sessionId);
      const thought = view.timeline.find((k) => view.messages[k.slice(8)]?.role === "thought");
      const answers = view.timeline.filter((k) => view.messages[k.slice(8)]?.role === "agent");
      expect(thought).toBeDefined();
      expect(answers.length).toBe(3);
      expect(new Set([thought, ...answers]).size).toBe(4);
      // Answers of different steps are separated by tool cards: an id is never reused across one.
      const order = view.timeline.map((k) => (k.startsWith("tool:") ? "tool" : view.messages[k.slice(8)]?.role));
      expect(order).toEqual(["user", "thought", "agent", "tool", "tool", "agent", "tool", "agent"]);
    } finally {
      await c.close();
    }
  });

  test("a reload shows the same ids", async () => {
    const box = sandbox("scripted/thinking");
    const live = await connectInProcess(box.env);
    const { sessionId } = await newSession(live.ctx, box.workspace);
    await prompt(live.ctx, sessionId, "Hi");
    await live.close();
    const fresh = await connectProcess(box.env);
    try {
      await load(fresh.ctx, sessionId, box.workspace);
      const liveIds = new Set(live.client.notifications.map(idOf).filter(Boolean));
      const loadedIds = new Set(fresh.client.notifications.map(idOf).filter(Boolean));
      expect(loadedIds).toEqual(liveIds);
    } finally {
      await fresh.close();
    }
  });
});

describe("session info and usage", () => {
  test("the first prompt titles the session; usage follows each step", async () => {
    const { c, sessionId } = await session("scripted/tool");
    try {
      await prompt(c.ctx, sessionId, "Summarize the README\nplease");
      const info = c.client.notifications.filter((n) => n.update.sessionUpdate === "session_info_update");
      expect(info.length).toBe(1);
      expect(info[0]!.update).toMatchObject({ title: "Summarize the README" });
      const usage = c.client.notifications.filter((n) => n.update.sessionUpdate === "usage_update");
      expect(usage.length).toBe(2);
      expect(usage[0]!.update).toMatchObject({ size: 200000 });
      await prompt(c.ctx, sessionId, "Again");
      expect(c.client.notifications.filter((n) => n.update.sessionUpdate === "session_info_update").length).toBe(1);
    } finally {
      await c.close();
    }
  });
});

describe("cancel", () => {
  test("the turn ends with exactly one cancelled stop reason", async () => {
    const { c, sessionId } = await session("scripted/slow");
    try {
      const turn = prompt(c.ctx, sessionId, "Go");
      await until(
        () => c.client.notifications.some((n) => n.update.sessionUpdate === "agent_message_chunk"),
        "an answer chunk",
      );
      await c.ctx.notify(acp.methods.agent.session.cancel, { sessionId });
      await c.ctx.notify(acp.methods.agent.session.cancel, { sessionId });
      expect(await turn).toEqual({ stopReason: "cancelled" });
      const after = c.client.notifications.length;
      await Bun.sleep(50);
      expect(c.client.notifications.length).toBe(after);
    } finally {
      await c.close();
    }
  });

  test("a cancel with no turn running is harmless", async () => {
    const { c, sessionId } = await session("scripted/plain");
    try {
      await c.ctx.notify(acp.methods.agent.session.cancel, { sessionId });
      expect((await prompt(c.ctx, sessionId, "Hi")).stopReason).toBe("end_turn");
    } finally {
      await c.close();
    }
  });
});

describe("overlapping prompts", () => {
  test("a prompt while a turn runs waits its turn and runs after it", async () => {
    const { c, sessionId } = await session("scripted/thinking");
    try {
      const first = prompt(c.ctx, sessionId, "First");
      const second = prompt(c.ctx, sessionId, "Second");
      expect((await first).stopReason).toBe("end_turn");
      expect((await second).stopReason).toBe("end_turn");
      const view = c.client.view(sessionId);
      expect(texts(view, "user")).toEqual(["First", "Second"]);
      expect(texts(view, "agent")).toEqual(["Here is a brief and clear answer.", "Here is a brief and clear answer."]);
    } finally {
      await c.close();
    }
  });

  test("a prompt sent after cancel waits for the cancelled turn to settle, then runs", async () => {
    const { c, sessionId } = await session("scripted/slow");
    try {
      const first = prompt(c.ctx, sessionId, "First");
      await until(
        () => c.client.notifications.some((n) => n.update.sessionUpdate === "agent_message_chunk"),
        "an answer chunk",
      );
      await c.ctx.notify(acp.methods.agent.session.cancel, { sessionId });
      const second = prompt(c.ctx, sessionId, "Second");
      expect((await first).stopReason).toBe("cancelled");
      const view = c.client.view(sessionId);
      await until(() => texts(view, "user").length === 2, "the second prompt");
      await c.ctx.notify(acp.methods.agent.session.cancel, { sessionId });
      expect((await second).stopReason).toBe("cancelled");
      expect(texts(view, "user")).toEqual(["First", "Second"]);
    } finally {
      await c.close();
    }
  });
});

describe("stop reasons and failures", () => {
  test.each([
    ["scripted/max-tokens", "max_tokens"],
    ["scripted/refusal", "refusal"],
  ])("%s ends %s", async (model, stopReason) => {
    const { c, sessionId } = await session(model);
    try {
      expect((await prompt(c.ctx, sessionId, "Go")).stopReason).toBe(stopReason as "max_tokens");
    } finally {
      await c.close();
    }
  });

  test("the step cap ends the turn max_turn_requests", async () => {
    const box = sandbox("scripted/loop");
    const c = await connectInProcess({ ...box.env, VERBATIM_MAX_STEPS: "3" });
    try {
      const { sessionId } = await newSession(c.ctx, box.workspace);
      expect((await prompt(c.ctx, sessionId, "Loop")).stopReason).toBe("max_turn_requests");
      expect(cards(c.client.view(sessionId)).length).toBe(3);
    } finally {
      await c.close();
    }
  });

  test("a provider failure after output is an error response; what was shown stays, with a visible notice", async () => {
    const box = sandbox("scripted/error");
    const live = await connectInProcess(box.env);
    const { sessionId } = await newSession(live.ctx, box.workspace);
    const error = await errorOf(prompt(live.ctx, sessionId, "Go"));
    expect(error.code).toBe(-32603);
    expect(error.message).toContain("dropped the connection");
    const view = live.client.view(sessionId);
    expect(texts(view, "agent")).toEqual([
      "Starting the answer, and then ",
      expect.stringContaining("dropped the connection"),
    ]);
    await live.close();
    const fresh = await connectInProcess(box.env);
    try {
      await load(fresh.ctx, sessionId, box.workspace);
      expect(texts(fresh.client.view(sessionId), "agent")).toEqual(texts(view, "agent"));
    } finally {
      await fresh.close();
    }
  });

  test("a step with duplicate provider call ids is rejected whole: no card, no tool run", async () => {
    const { c, sessionId } = await session("scripted/duplicate-ids");
    try {
      const error = await errorOf(prompt(c.ctx, sessionId, "Read twice"));
      expect(error.message).toContain("same id");
      expect(cards(c.client.view(sessionId))).toEqual([]);
    } finally {
      await c.close();
    }
  });
});

describe("a refusal", () => {
  test("ends the turn refusal and takes the turn back: the journal says so, and the model's context drops it", async () => {
    const box = sandbox("scripted/refusal");
    const c = await connectInProcess(box.env);
    try {
      const { sessionId } = await newSession(c.ctx, box.workspace);
      expect((await prompt(c.ctx, sessionId, "Something it will not do")).stopReason).toBe("refusal");
      const facts = storedFacts(box.home, sessionId);
      expect(facts.find((f) => f.kind === "turn_ended")).toMatchObject({ stopReason: "refusal", retracted: true });
      expect(conversation(facts)).toEqual([]);
    } finally {
      await c.close();
    }
  });
});
