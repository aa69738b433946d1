/**
 * Compaction: when the context nears the model's window (or on `/compact`), older turns are
 * summarised for the model. The user still sees every turn; the summary is shown once, as
 * compaction updates to clients that take them and as a message to others, and reopened the same.
 */
import { describe, expect, test } from "bun:test";
import { journalFile } from "../../src/journal/paths.ts";
import { SqliteJournal } from "../../src/journal/sqlite-store.ts";
import { ConversationFold, SUMMARY_PREFIX } from "../../src/replay/conversation.ts";
import type { ModelMessage } from "../../src/replay/model-messages.ts";
import type { ViewModel } from "../../src/view/view-model.ts";
import type { Sandbox } from "../support/workspace.ts";
import { prompt } from "../support/acp-session.ts";
import { parity, texts } from "./harness.ts";

/** The model's context as the session's journal folds it. */
function conversationOf(box: Sandbox, sessionId: string): ModelMessage[] {
  const journal = new SqliteJournal(journalFile(box.home));
  try {
    const fold = new ConversationFold();
    for (const { fact } of journal.read(sessionId)) fold.apply(fact);
    return fold.messages;
  } finally {
    journal.closeNow();
  }
}

type CompactionMeta = { compactionId: string; trigger: string; status: string; error?: string };

/** Messages that show a compaction (clients without `session.compaction`), with their meta. */
const compactionMessages = (view: ViewModel) =>
  Object.values(view.messages)
    .filter((m) => (m.meta?.verbatim as { compaction?: unknown } | undefined)?.compaction)
    .map((m) => ({
      text: m.content.map((b) => (b.type === "text" ? b.text : "")).join(""),
      meta: (m.meta!.verbatim as { compaction: CompactionMeta }).compaction,
    }));

const answersOf = (view: ViewModel) =>
  texts(view, "agent").filter((t) => !t.includes("summarised for the model") && !t.includes("Summarising"));

describe("compaction", () => {
  test("near the window, older turns are summarised before the next turn; the user still sees them all", async () => {
    const r = await parity("scripted/compaction", async ({ ctx, sessionId }) => {
      for (const text of ["First question", "Second question", "Third question"]) {
        expect((await prompt(ctx, sessionId, text)).stopReason).toBe("end_turn");
      }
    });
    expect(texts(r.live, "user")).toEqual(["First question", "Second question", "Third question"]);
    const [shown, ...more] = compactionMessages(r.live);
    expect(more).toEqual([]);
    expect(shown?.meta).toMatchObject({ trigger: "auto", status: "completed" });
    expect(shown?.text).toContain('Summary: the user sent 2 prompts: "First question"; "Second question".');
    const answers = answersOf(r.live);
    expect(answers.map((a) => a.split(".")[0])).toEqual([
      "I see 1 prompt in my context",
      "I see 2 prompts in my context",
      "I see 1 prompt in my context, this one opened by a summary of earlier turns",
    ]);
    // The summary is shown between the third prompt and its answer.
    const order = r.live.timeline.map((k) => r.live.messages[k.slice("message:".length)]);
    const at = order.findIndex((m) => (m?.meta?.verbatim as { compaction?: unknown } | undefined)?.compaction);
    expect(order[at - 1]?.role).toBe("user");
    expect(order[at + 1]?.content[0]).toMatchObject({ text: expect.stringContaining("I see 1 prompt") });
    expect(r.differences).toEqual([]);
  });

  test("a compaction resets the measure: the next one waits until the context fills again", async () => {
    const r = await parity("scripted/compaction", async ({ ctx, sessionId }) => {
      for (const text of ["One", "Two", "Three", "Four"]) await prompt(ctx, sessionId, text);
    });
    expect(compactionMessages(r.live).length).toBe(1);
    expect(answersOf(r.live).at(-1)).toStartWith("I see 2 prompts in my context. Here");
    expect(r.differences).toEqual([]);
  });

  test("a client that takes compaction updates is shown compaction_update and summary chunks instead", async () => {
    const capabilities = { session: { compaction: {} } };
    const r = await parity(
      "scripted/compaction",
      async ({ ctx, sessionId }) => {
        for (const text of ["First question", "Second question", "Third question"]) await prompt(ctx, sessionId, text);
      },
      { capabilities },
    );
    expect(compactionMessages(r.live)).toEqual([]);
    const entries = Object.values(r.live.compactions);
    expect(entries.length).toBe(1);
    expect(entries[0]?.status).toBe("completed");
    expect(entries[0]?.summary).toEqual([
      { type: "text", text: 'Summary: the user sent 2 prompts: "First question"; "Second question".' },
    ]);
    const kinds = r.liveNotifications.map((n) => n.update.sessionUpdate);
    expect(kinds).toContain("compaction_summary_chunk");
    expect(kinds.filter((k) => k === "compaction_update").length).toBe(2);
    expect(r.live.timeline.filter((k) => k.startsWith("compaction:")).length).toBe(1);
    expect(r.differences).toEqual([]);
  });

  test("/compact summarises now, keeping what it is asked to; the model goes on from the summary", async () => {
    const r = await parity("scripted/echo", async ({ ctx, sessionId }) => {
      await prompt(ctx, sessionId, "Hello there");
      expect((await prompt(ctx, sessionId, "/compact the greeting")).stopReason).toBe("end_turn");
      await prompt(ctx, sessionId, "Again");
    });
    expect(texts(r.live, "user")).toEqual(["Hello there", "/compact the greeting", "Again"]);
    const [shown] = compactionMessages(r.live);
    expect(shown?.meta).toMatchObject({ trigger: "manual", status: "completed" });
    expect(shown?.text).toContain('Summary: the user sent 1 prompt: "Hello there". Kept in particular: the greeting.');
    // The model's context restarts from the summary, which opens the next prompt as a part of its own.
    const [next, ...rest] = conversationOf(r.box, r.sessionId);
    expect(rest).toEqual([expect.objectContaining({ role: "assistant" })]);
    expect(next?.role === "user" && next.content).toEqual([
      { type: "text", text: expect.stringContaining('Summary: the user sent 1 prompt: "Hello there".') },
      { type: "text", text: "Again" },
    ]);
    expect(next?.role === "user" && next.content[0]?.type === "text" && next.content[0].text).toStartWith(
      SUMMARY_PREFIX,
    );
    // The model answers the user's own text (the scripted echo repeats its prompt).
    expect(texts(r.live, "agent").at(-1)).toBe("You said: Again");
    expect(r.differences).toEqual([]);
  });

  test("/compact with nothing to summarise says so and changes nothing", async () => {
    const r = await parity("scripted/echo", async ({ ctx, sessionId }) => {
      await prompt(ctx, sessionId, "/compact");
      await prompt(ctx, sessionId, "Hi");
    });
    expect(texts(r.live, "agent")).toEqual(["There is nothing to compact yet.", "You said: Hi"]);
    expect(r.differences).toEqual([]);
  });
});
