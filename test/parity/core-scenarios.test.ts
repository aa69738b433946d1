/**
 * The headline tests: for each scenario, what a client folded live equals, field by field, what
 * a fresh process shows after `session/load`.
 */
import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, test } from "bun:test";
import { prompt, until } from "../support/acp-session.ts";
import { cards, parity, texts } from "./harness.ts";

describe("a reopened session shows exactly what was shown live", () => {
  test("plain answer", async () => {
    const r = await parity("scripted/plain", async ({ ctx, sessionId }) => {
      expect((await prompt(ctx, sessionId, "Hello")).stopReason).toBe("end_turn");
    });
    expect(texts(r.live, "user")).toEqual(["Hello"]);
    expect(texts(r.live, "agent")[0]).toContain("scripted model");
    expect(r.differences).toEqual([]);
  });

  test("thinking then answer", async () => {
    const r = await parity("scripted/thinking", async ({ ctx, sessionId }) => {
      await prompt(ctx, sessionId, "Think first");
    });
    expect(texts(r.live, "thought")).toEqual(["The user wants a short answer. I'll keep it brief and clear."]);
    expect(texts(r.live, "agent")).toEqual(["Here is a brief and clear answer."]);
    expect(r.differences).toEqual([]);
  });

  test("tool call with locations", async () => {
    const r = await parity("scripted/tool", async ({ ctx, sessionId }) => {
      await prompt(ctx, sessionId, "Read the README");
    });
    const [card] = cards(r.live);
    expect(card).toMatchObject({ name: "Read", kind: "read", status: "completed" });
    expect(card?.locations).toEqual([{ path: `${r.box.workspace}/README.md`, line: 1 }]);
    expect(card?.rawInput).toEqual({ file_path: `${r.box.workspace}/README.md` });
    expect(r.differences).toEqual([]);
  });

  test("failing tool call", async () => {
    const r = await parity("scripted/tool-failure", async ({ ctx, sessionId }) => {
      await prompt(ctx, sessionId, "Read the notes");
    });
    const [card] = cards(r.live);
    expect(card?.status).toBe("failed");
    expect(JSON.stringify(card?.content)).toContain("File does not exist");
    expect(texts(r.live, "agent").join(" ")).toContain("does not exist");
    expect(r.differences).toEqual([]);
  });

  test("cancel in the middle of an answer keeps what was streamed", async () => {
    const r = await parity("scripted/slow", async ({ ctx, client, sessionId }) => {
      const turn = prompt(ctx, sessionId, "Tell me everything");
      await until(
        () => client.notifications.filter((n) => n.update.sessionUpdate === "agent_message_chunk").length >= 3,
        "a few answer chunks",
      );
      await ctx.notify(acp.methods.agent.session.cancel, { sessionId });
      expect((await turn).stopReason).toBe("cancelled");
    });
    const [answer] = texts(r.live, "agent");
    expect(texts(r.live, "thought")[0]).toContain("Let me think");
    expect(answer).toStartWith("Here is a ");
    expect(answer!.length).toBeLessThan(200);
    expect(r.differences).toEqual([]);
  });

  test("plan", async () => {
    const r = await parity("scripted/plan", async ({ ctx, sessionId }) => {
      await prompt(ctx, sessionId, "Make a plan");
    });
    expect(r.live.plan?.map((e) => e.status)).toEqual(["completed", "completed", "in_progress"]);
    expect(r.live.plan?.every((e) => e.priority === "medium")).toBe(true);
    expect(r.differences).toEqual([]);
  });

  test("mode change mid-session", async () => {
    const r = await parity("scripted/plain", async ({ ctx, sessionId }) => {
      await prompt(ctx, sessionId, "One");
      await ctx.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: "mode", value: "plan" });
      await prompt(ctx, sessionId, "Two");
    });
    expect(r.live.modeId).toBe("plan");
    const mode = r.live.configOptions?.find((o) => o.id === "mode");
    expect(mode && mode.type === "select" ? mode.currentValue : undefined).toBe("plan");
    expect(r.differences).toEqual([]);
  });

  test("two turns", async () => {
    const r = await parity("scripted/demo", async ({ ctx, sessionId }) => {
      await prompt(ctx, sessionId, "First");
      await prompt(ctx, sessionId, "Second");
    });
    expect(texts(r.live, "user")).toEqual(["First", "Second"]);
    expect(cards(r.live).map((c) => c.status)).toEqual(["completed", "completed", "completed", "failed"]);
    expect(r.live.title).toBe("First");
    expect(r.live.usage?.used).toBeGreaterThan(0);
    expect(r.differences).toEqual([]);
  });

  test("replay sends fewer messages than live by merging chunks, never a different view", async () => {
    const r = await parity("scripted/slow", async ({ ctx, sessionId }) => {
      await prompt(ctx, sessionId, "Everything");
    });
    expect(r.reloadUpdates).toBeLessThan(r.liveUpdates / 4);
    expect(r.differences).toEqual([]);
  });
});

describe("a refusal", () => {
  const setModel = (ctx: Parameters<typeof prompt>[0], sessionId: string, value: string) =>
    ctx.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: "model", value });

  test("is taken out of the view when it ends, as ACP says, and a reopen does not bring it back", async () => {
    const r = await parity("scripted/plain", async ({ ctx, client, sessionId }) => {
      await prompt(ctx, sessionId, "Hello");
      await setModel(ctx, sessionId, "scripted/refusal");
      // Shown as it streams: the client cannot know before the prompt ends.
      const shownLive = client.notifications.length;
      expect((await prompt(ctx, sessionId, "Something it will not do")).stopReason).toBe("refusal");
      expect(client.notifications.slice(shownLive).some((n) => n.update.sessionUpdate === "agent_message_chunk")).toBe(
        true,
      );
      await setModel(ctx, sessionId, "scripted/plain");
      await prompt(ctx, sessionId, "Carry on");
    });
    expect(texts(r.live, "user")).toEqual(["Hello", "Carry on"]);
    expect(texts(r.reloaded, "user")).toEqual(["Hello", "Carry on"]);
    expect(JSON.stringify(r.reloaded)).not.toContain("can't help");
    expect(r.differences).toEqual([]);
  });
});
