/** The one replay pipeline: projection, then retracted turns, then coalescing, then interruption marks. */
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

  test("marks a call left open interrupted only when asked to", () => {
    const facts = [prompt("t1", "Read"), announced];
    expect(replayAll(projector(), records(facts), false).map((u) => u.sessionUpdate)).toEqual([
      "user_message_chunk",
      "tool_call",
    ]);
    const marked = replayAll(projector(), records(facts), true);
    expect(marked.map((u) => u.sessionUpdate)).toEqual(["user_message_chunk", "tool_call", "tool_call_update"]);
    expect(marked[2]).toMatchObject({
      toolCallId: "call_1",
      status: "failed",
      _meta: { verbatim: { interrupted: { mayHaveRun: false } } },
    });
  });

  test("leaves the projector projecting live facts", () => {
    const p = projector();
    replayAll(p, records([prompt("t1", "Hi")]), false);
    expect(p.context.replay).toBe(false);
  });
});
