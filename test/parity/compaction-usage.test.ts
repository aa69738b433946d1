/**
 * A completed compaction ends with a `usage_update` of the compacted context, so an editor does
 * not show the old context size until the next turn: `used` is the summary's tokens as the
 * provider reported them, `size` the model's window, `cost` the session's with the compaction's
 * included. It is recorded with the compaction's end and replayed on load.
 */
import type { SessionNotification, SessionUpdate } from "@agentclientprotocol/sdk";
import { describe, expect, test } from "bun:test";
import { prompt } from "../support/acp-session.ts";
import { fixtureServer } from "../support/fixture-server.ts";
import { anthropicKit, modelRef } from "../support/provider-kits.ts";
import { sandbox } from "../support/workspace.ts";
import { parity } from "./harness.ts";

type Usage = Extract<SessionUpdate, { sessionUpdate: "usage_update" }>;

/** The updates sent from the compaction's end (`status`) on: what `/compact` leaves the editor showing. */
function afterCompaction(notifications: SessionNotification[], status = "completed"): SessionUpdate[] {
  const updates = notifications.map((n) => n.update);
  const end = updates.findIndex(
    (u) =>
      u.sessionUpdate === "agent_message_chunk" &&
      (u._meta?.verbatim as { compaction?: { status?: string } } | undefined)?.compaction?.status === status,
  );
  expect(end).toBeGreaterThan(-1);
  return updates.slice(end + 1);
}

const usages = (updates: SessionUpdate[]) => updates.filter((u): u is Usage => u.sessionUpdate === "usage_update");

/** A priced model's turn, then `/compact`, whose call answers `summary`; live and reloaded. */
async function promptThenCompact(summary: string) {
  const server = fixtureServer();
  const box = sandbox(modelRef(anthropicKit));
  Object.assign(box.env, anthropicKit.env(server));
  server.enqueue({ sse: anthropicKit.text("one") }, { sse: anthropicKit.text(summary) });
  const r = await parity(
    modelRef(anthropicKit),
    async ({ ctx, sessionId }) => {
      await prompt(ctx, sessionId, "Hi");
      await prompt(ctx, sessionId, "/compact");
    },
    { box },
  );
  return { r, server };
}

describe("usage after a compaction", () => {
  test("/compact ends with the compacted context's usage, and a reload shows the same", async () => {
    const summary = 'Summary: the user sent 1 prompt: "Hello there".';
    const r = await parity("scripted/echo", async ({ ctx, sessionId }) => {
      await prompt(ctx, sessionId, "Hello there");
      await prompt(ctx, sessionId, "/compact");
    });
    const before = usages(r.liveNotifications.map((n) => n.update))[0];
    const [shown, ...more] = usages(afterCompaction(r.liveNotifications));
    expect(more).toEqual([]);
    // The scripted provider reports a quarter of the summary's characters as its output tokens.
    expect(shown).toEqual({ sessionUpdate: "usage_update", used: Math.ceil(summary.length / 4), size: 200_000 });
    expect(shown!.used).toBeLessThan(before!.used);
    expect(r.live.usage).toEqual({ used: shown!.used, size: 200_000 });
    expect(usages(afterCompaction(r.reloadNotifications))).toEqual([shown!]);
    expect(r.differences).toEqual([]);
  });

  test("the compacted context's usage carries the session's cost with the compaction's, as the provider reported it", async () => {
    const { r, server } = await promptThenCompact("The summary.");
    expect(server.requests.length).toBe(2);
    // Each call reported 120 input and 40 output tokens: the summary is 40 tokens; two calls are paid for.
    const [step] = usages(r.liveNotifications.map((n) => n.update));
    const [shown] = usages(afterCompaction(r.liveNotifications));
    expect(step).toMatchObject({ used: 160, cost: { amount: 0.00096, currency: "USD" } });
    expect(shown).toEqual({
      sessionUpdate: "usage_update",
      used: 40,
      size: 1_000_000,
      cost: { amount: 0.00192, currency: "USD" },
    });
    expect(usages(afterCompaction(r.reloadNotifications))).toEqual([shown!]);
    expect(r.differences).toEqual([]);
  });

  test("a compaction that fails still shows what its call cost: the context as it stood, with the session's cost", async () => {
    // The compaction call answers, is paid for, and returns no summary.
    const { r } = await promptThenCompact("");
    const [step] = usages(r.liveNotifications.map((n) => n.update));
    const [shown, ...more] = usages(afterCompaction(r.liveNotifications, "failed"));
    expect(more).toEqual([]);
    expect(shown).toEqual({
      sessionUpdate: "usage_update",
      used: step!.used,
      size: step!.size,
      cost: { amount: 0.00192, currency: "USD" },
    });
    expect(usages(afterCompaction(r.reloadNotifications, "failed"))).toEqual([shown!]);
    expect(r.differences).toEqual([]);
  });
});
