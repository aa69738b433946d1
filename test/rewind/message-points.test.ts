/** Where each shown message ends in the journal: the point a fork at it, or a rewind to it, keeps (replay/message-points.ts). */
import { describe, expect, test } from "bun:test";
import type { Fact, StoredFact } from "../../src/journal/facts/index.ts";
import { MessagePoints } from "../../src/replay/message-points.ts";
import { isRetracted, rangesOf } from "../../src/replay/retraction.ts";

const model = { provider: "scripted", model: "demo" };
const records = (facts: Fact[]): StoredFact[] => facts.map((fact, i) => ({ seq: i + 1, at: "", fact }));
const pointsOf = (facts: Fact[]) => {
  const points = new MessagePoints();
  for (const record of records(facts)) points.push(record);
  return points;
};
const prompt = (turnId: string, messageId: string): Fact => ({
  kind: "prompt_received",
  turnId,
  messageId,
  blocks: [],
});
const say = (messageId: string, stepId = "s1"): Fact => ({
  kind: "message_chunk",
  stepId,
  messageId,
  stream: "answer",
  text: "x",
});
const stepEnd = (turnId: string, calls: number): Fact => ({
  kind: "step_ended",
  turnId,
  stepId: "s1",
  model,
  outcome: "completed",
  calls: Array.from({ length: calls }, (_, i) => ({
    toolCallId: `c${i}`,
    providerCallId: `p${i}`,
    name: "Read",
    input: {},
  })),
});
const usage: Fact = { kind: "usage_recorded", stepId: "s1", inputTokens: 1, outputTokens: 1, used: 2, size: 10 };
const turnEnd = (turnId: string, retracted = false): Fact => ({
  kind: "turn_ended",
  turnId,
  outcome: "completed",
  ...(retracted ? { retracted: true as const } : {}),
});

describe("a message's point", () => {
  test("carries over its step's end (no call), the usage and the turn's end", () => {
    const points = pointsOf([prompt("t1", "u1"), say("a1"), say("a1"), stepEnd("t1", 0), usage, turnEnd("t1")]);
    expect(points.get("a1")).toMatchObject({ role: "agent", startSeq: 2, seq: 6 });
    expect(points.get("u1")).toMatchObject({ role: "user", startSeq: 1, seq: 1 });
  });

  test("stops at its step's end when the step made a call (the call's card follows)", () => {
    const points = pointsOf([prompt("t1", "u1"), say("a1"), stepEnd("t1", 1), usage]);
    expect(points.get("a1")?.seq).toBe(2);
  });

  test("a refused turn's messages have none (a client drops them)", () => {
    const points = pointsOf([prompt("t1", "u1"), say("a1"), turnEnd("t1", true)]);
    expect(points.get("u1")).toBeUndefined();
    expect(points.get("a1")).toBeUndefined();
  });

  test("a rewind's messages after its point have none; those before keep theirs", () => {
    const facts: Fact[] = [
      prompt("t1", "u1"),
      say("a1"),
      turnEnd("t1"),
      prompt("t2", "u2"),
      say("a2", "s2"),
      turnEnd("t2"),
    ];
    facts.push({ kind: "session_rewound", toSeq: 3, toMessageId: "a1", earlier: [] });
    const points = pointsOf(facts);
    expect(points.all().map((p) => p.messageId)).toEqual(["u1", "a1"]);
  });
});

describe("what a rewind takes back", () => {
  test("the records after its point and before it, with the earlier runs it keeps", () => {
    const ranges = rangesOf({ kind: "session_rewound", toSeq: 10, earlier: [{ fromSeq: 4, toSeq: 6 }] }, 20);
    expect(ranges).toEqual([
      { fromSeq: 4, toSeq: 6 },
      { fromSeq: 11, toSeq: 19 },
    ]);
    expect([3, 4, 6, 7, 10, 11, 19, 20].map((seq) => isRetracted(ranges, seq))).toEqual([
      false,
      true,
      true,
      false,
      false,
      true,
      true,
      false,
    ]);
  });
});
