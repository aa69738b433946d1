/**
 * The journal's list for history views: sessions with a prompt, newest first by last activity,
 * paged as of the first page's moment; and each row's summary (state, last turn's end, cost),
 * computed from its facts when read.
 */
import { describe, expect, test } from "bun:test";
import { sessionSummary } from "../../src/core/session/session-summary.ts";
import type { Fact } from "../../src/journal/facts/index.ts";
import type { SqliteJournal } from "../../src/journal/sqlite-store.ts";
import { createSession, tempJournal } from "../support/journal.ts";

const promptFact = (turnId: string): Fact => ({
  kind: "prompt_received",
  turnId,
  messageId: `msg_${turnId}`,
  blocks: [{ type: "text", text: "hi" }],
});
/** Times after the sessions' creation (now), a second apart. */
const base = Date.now() + 1000;
const at = (second: number) => new Date(base + second * 1000).toISOString();

/** A session with a prompt at `second` (its last activity then). */
async function prompted(journal: SqliteJournal, id: string, second: number): Promise<string> {
  await createSession(journal, id);
  await journal.append(id, 2, promptFact(`turn_${id}`), at(second));
  return id;
}

describe("the history list", () => {
  test("orders by last activity, and leaves out sessions that never received a prompt", async () => {
    const { journal } = tempJournal();
    await prompted(journal, "ses_a", 1);
    await prompted(journal, "ses_b", 2);
    await createSession(journal, "ses_empty");
    await journal.append(
      "ses_a",
      3,
      { kind: "turn_ended", turnId: "turn_ses_a", outcome: "completed", stopReason: "end_turn" },
      at(3),
    );
    expect((await journal.list({ limit: 10, asOf: at(100) })).map((r) => [r.sessionId, r.updatedAt])).toEqual([
      ["ses_a", at(3)],
      ["ses_b", at(2)],
    ]);
    journal.close();
  });

  test("pages read as of the first page's moment repeat no session and skip none while sessions change", async () => {
    const { journal } = tempJournal();
    for (let i = 1; i <= 4; i++) await prompted(journal, `ses_${i}`, i);
    const asOf = at(10);
    const first = await journal.list({ limit: 2, asOf });
    expect(first.map((r) => r.sessionId)).toEqual(["ses_4", "ses_3"]);
    // Meanwhile the oldest session goes on, and a new one starts.
    await journal.append(
      "ses_1",
      3,
      { kind: "turn_ended", turnId: "turn_ses_1", outcome: "completed", stopReason: "end_turn" },
      at(20),
    );
    await prompted(journal, "ses_new", 21);
    const last = first[1]!;
    const second = await journal.list({
      limit: 2,
      asOf,
      after: { updatedAt: last.updatedAt, sessionId: last.sessionId },
    });
    expect(second.map((r) => [r.sessionId, r.updatedAt])).toEqual([
      ["ses_2", at(2)],
      ["ses_1", at(1)],
    ]);
    // A new listing sees the changes.
    expect((await journal.list({ limit: 2, asOf: at(100) })).map((r) => r.sessionId)).toEqual(["ses_new", "ses_1"]);
    journal.close();
  });
});

describe("a listed session's summary", () => {
  test("is idle with its last turn's end and its cost as last shown", async () => {
    const { journal } = tempJournal();
    const id = await prompted(journal, "ses_s", 1);
    await journal.append(
      id,
      3,
      {
        kind: "usage_recorded",
        stepId: "step_1",
        inputTokens: 10,
        outputTokens: 5,
        used: 15,
        size: 1000,
        cost: { amount: 0.001, currency: "USD" },
        sessionCost: { amount: 0.003, currency: "USD" },
      },
      at(2),
    );
    await journal.append(
      id,
      4,
      { kind: "turn_ended", turnId: "turn_ses_s", outcome: "completed", stopReason: "end_turn" },
      at(3),
    );
    expect(await sessionSummary(journal, id)).toEqual({
      state: "idle",
      lastTurnEndedAt: at(3),
      cost: { amount: 0.003, currency: "USD" },
    });
    journal.close();
  });

  test("is running while a live process holds a turn that has not ended, and interrupted once none does", async () => {
    const { journal } = tempJournal();
    const id = await prompted(journal, "ses_r", 1);
    expect(await sessionSummary(journal, id)).toEqual({ state: "running" });
    await journal.release(id);
    expect(await sessionSummary(journal, id)).toEqual({ state: "interrupted" });
    journal.close();
  });
});
