/** A replay holds each turn until its end, and leaves out the entries of a retracted one. */
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { describe, expect, test } from "bun:test";
import type { Fact } from "../../src/journal/facts/index.ts";
import { RetractedTurns } from "../../src/replay/retracted-turns.ts";

const promptFact = (turnId: string): Fact => ({
  kind: "prompt_received",
  turnId,
  messageId: `msg_${turnId}`,
  blocks: [{ type: "text", text: "Hi" }],
});
const ended = (turnId: string, retracted = false): Fact => ({
  kind: "turn_ended",
  turnId,
  outcome: "completed",
  stopReason: retracted ? "refusal" : "end_turn",
  ...(retracted ? { retracted: true as const } : {}),
});
const chunkFact: Fact = { kind: "message_chunk", stepId: "s", messageId: "m", stream: "answer", text: "no" };
const usageFact: Fact = { kind: "usage_recorded", stepId: "s", inputTokens: 1, outputTokens: 1, used: 2, size: 10 };
const echo: SessionUpdate = {
  sessionUpdate: "user_message_chunk",
  content: { type: "text", text: "Hi" },
  messageId: "msg_t1",
};
const answer: SessionUpdate = {
  sessionUpdate: "agent_message_chunk",
  content: { type: "text", text: "no" },
  messageId: "m",
};
const usage: SessionUpdate = { sessionUpdate: "usage_update", used: 2, size: 10 };

describe("replaying turns", () => {
  test("a turn's updates are sent whole when it ends", () => {
    const turns = new RetractedTurns();
    expect(turns.push(promptFact("t1"), [echo])).toEqual([]);
    expect(turns.push(chunkFact, [answer])).toEqual([]);
    expect(turns.push(ended("t1"), [])).toEqual([echo, answer]);
  });

  test("a retracted turn sends only what is session state", () => {
    const turns = new RetractedTurns();
    turns.push(promptFact("t1"), [echo]);
    turns.push(chunkFact, [answer]);
    turns.push(usageFact, [usage]);
    expect(turns.push(ended("t1", true), [])).toEqual([usage]);
  });

  test("a turn that never ended is shown as it was, before the next one or at the end", () => {
    const turns = new RetractedTurns();
    turns.push(promptFact("t1"), [echo]);
    expect(turns.push(promptFact("t2"), [echo])).toEqual([echo]);
    expect(turns.flush()).toEqual([echo]);
  });

  test("between turns, updates pass at once", () => {
    expect(new RetractedTurns().push(usageFact, [usage])).toEqual([usage]);
  });
});
