/** The one replay pipeline: projection, then retracted turns, then coalescing, then interruption marks. */
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { describe, expect, test } from "bun:test";
import type { Fact, StoredFact } from "../../src/journal/facts/index.ts";
import { Projector } from "../../src/replay/project.ts";
import { replayAll } from "../../src/replay/replay-pipeline.ts";

const records = (facts: Fact[]): StoredFact[] =>
  facts.map((fact, i) => ({ seq: i + 1, at: "2026-01-01T00:00:00.000Z", fact }));
const projector = () => new Projector({ notices: false, replay: true, sessionId: "ses_1" });
const prompt = (turnId: string, text: string): Fact => ({
  kind: "prompt_received",
  turnId,
  messageId: `msg_${turnId}`,
  blocks: [{ type: "text", text }],
});
const chunk = (messageId: string, text: string): Fact => ({
  kind: "message_chunk",
  stepId: "s",
  messageId,
  stream: "answer",
  text,
});
const ended = (turnId: string, retracted: boolean): Fact => ({
  kind: "turn_ended",
  turnId,
  outcome: "completed",
  stopReason: retracted ? "refusal" : "end_turn",
  ...(retracted ? { retracted: true as const } : {}),
});
const announced: Fact = {
  kind: "tool_call_announced",
  toolCallId: "call_1",
  name: "Read",
  title: "Read a.txt",
  toolKind: "read",
  rawInput: {},
  locations: [],
  content: [],
};

const interruptedTurn = (turnId: string): SessionUpdate => ({
  sessionUpdate: "session_info_update",
  _meta: { verbatim: { turnEnded: { turnId, ending: "interrupted" } } },
});

describe("the replay pipeline", () => {
  test("merges a kept turn's chunks and leaves out a retracted turn's entries", () => {
    const updates = replayAll(
      projector(),
      records([
        prompt("t1", "Hi"),
        chunk("m1", "Hel"),
        chunk("m1", "lo"),
        ended("t1", false),
        prompt("t2", "No"),
        chunk("m2", "refused"),
        ended("t2", true),
      ]),
      false,
    );
    expect(updates).toEqual([
      { sessionUpdate: "user_message_chunk", content: { type: "text", text: "Hi" }, messageId: "msg_t1" },
      { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Hello" }, messageId: "m1" },
    ]);
  });

  test("marks a call left open, and the turn it was in, interrupted only when asked to", () => {
    const facts = [prompt("t1", "Read"), announced];
    expect(replayAll(projector(), records(facts), false).map((u) => u.sessionUpdate)).toEqual([
      "user_message_chunk",
      "tool_call",
    ]);
    const marked = replayAll(projector(), records(facts), true);
    expect(marked.map((u) => u.sessionUpdate)).toEqual([
      "user_message_chunk",
      "tool_call",
      "tool_call_update",
      "session_info_update",
    ]);
    expect(marked[2]).toMatchObject({
      toolCallId: "call_1",
      status: "failed",
      _meta: { verbatim: { interrupted: { mayHaveRun: false } } },
    });
    expect(marked[3]).toEqual(interruptedTurn("t1"));
  });

  test("marks no turn interrupted when the journal ends between turns", () => {
    const updates = replayAll(projector(), records([prompt("t1", "Hi"), ended("t1", false)]), true);
    expect(updates.map((u) => u.sessionUpdate)).toEqual(["user_message_chunk"]);
  });

  test("shows how a cancelled or failed turn ended where it ended, and nothing for a turn that ended as asked", () => {
    const updates = replayAll(
      projector(),
      records([
        prompt("t1", "Hi"),
        chunk("m1", "Hel"),
        { kind: "turn_ended", turnId: "t1", outcome: "completed", stopReason: "cancelled" },
        prompt("t2", "Again"),
        { kind: "turn_ended", turnId: "t2", outcome: "failed", error: "the provider answered 500" },
        prompt("t3", "Once more"),
        ended("t3", false),
      ]),
      false,
    );
    expect(updates.filter((u) => u.sessionUpdate === "session_info_update")).toEqual([
      {
        sessionUpdate: "session_info_update",
        _meta: { verbatim: { turnEnded: { turnId: "t1", ending: "cancelled" } } },
      },
      {
        sessionUpdate: "session_info_update",
        _meta: { verbatim: { turnEnded: { turnId: "t2", ending: "failed", error: "the provider answered 500" } } },
      },
    ]);
    expect(updates.map((u) => u.sessionUpdate)).toEqual([
      "user_message_chunk",
      "agent_message_chunk",
      "session_info_update",
      "user_message_chunk",
      "session_info_update",
      "user_message_chunk",
    ]);
  });

  test("a recovery shows the turn a dead process left open as interrupted, where that turn stopped", () => {
    const updates = replayAll(
      projector(),
      records([
        prompt("t1", "Hi"),
        chunk("m1", "Hel"),
        { kind: "session_recovered", interruptedTurnId: "t1", calls: [] },
        prompt("t2", "Again"),
        ended("t2", false),
      ]),
      true,
    );
    expect(updates.map((u) => u.sessionUpdate)).toEqual([
      "user_message_chunk",
      "agent_message_chunk",
      "session_info_update",
      "user_message_chunk",
    ]);
    expect(updates[2]).toEqual(interruptedTurn("t1"));
  });

  test("a turn a rewind took back shows no end", () => {
    const facts: Fact[] = [
      prompt("t1", "Hi"),
      { kind: "turn_ended", turnId: "t1", outcome: "completed", stopReason: "cancelled" },
    ];
    const updates = replayAll(projector(), records(facts), true, [{ fromSeq: 1, toSeq: 2 }]);
    expect(updates).toEqual([]);
  });

  test("leaves the projector projecting live facts", () => {
    const p = projector();
    replayAll(p, records([prompt("t1", "Hi")]), false);
    expect(p.context.replay).toBe(false);
  });
});
