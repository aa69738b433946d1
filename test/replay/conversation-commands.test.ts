/**
 * What the model is given after slash commands and compactions, folded from facts alone: the
 * same facts give the same context live and after a reopen.
 */
import { describe, expect, test } from "bun:test";
import type { Fact } from "../../src/journal/facts/index.ts";
import { conversation, SUMMARY_PREFIX } from "../../src/replay/conversation.ts";

const model = { provider: "scripted", model: "echo" };
type Image = { type: "image"; data: string; mimeType: string };
const prompt = (turnId: string, text: string, images: Image[] = []): Fact => ({
  kind: "prompt_received",
  turnId,
  messageId: `msg_${turnId}`,
  blocks: [{ type: "text", text }, ...images],
});
const answer = (turnId: string, text: string): Fact[] => [
  { kind: "message_chunk", stepId: `step_${turnId}`, messageId: `ans_${turnId}`, stream: "answer", text },
  {
    kind: "step_ended",
    turnId,
    stepId: `step_${turnId}`,
    model,
    outcome: "completed",
    stopReason: "end_turn",
    calls: [],
  },
  { kind: "turn_ended", turnId, outcome: "completed", stopReason: "end_turn" },
];

describe("slash commands in the model's context", () => {
  test("a project command's text replaces the prompt's text; its other blocks stay", () => {
    const image = { type: "image" as const, data: "AAAA", mimeType: "image/png" };
    const messages = conversation([
      prompt("t1", "/greet Ada", [image]),
      { kind: "command_invoked", turnId: "t1", name: "greet", arguments: "Ada", modelText: "Say hello to Ada." },
    ]);
    expect(messages).toEqual([{ role: "user", content: [{ type: "text", text: "Say hello to Ada." }, image] }]);
  });

  test("/compact itself never reaches the model", () => {
    const messages = conversation([
      prompt("t1", "Hello"),
      ...answer("t1", "Hi."),
      prompt("t2", "/compact"),
      { kind: "command_invoked", turnId: "t2", name: "compact", arguments: "" },
    ]);
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant"]);
  });
});

describe("compaction in the model's context", () => {
  const earlier: Fact[] = [prompt("t1", "Read the README"), ...answer("t1", "It describes the project.")];

  test("after /compact the earlier turns are gone and the summary opens the next prompt", () => {
    const messages = conversation([
      ...earlier,
      prompt("t2", "/compact"),
      { kind: "command_invoked", turnId: "t2", name: "compact", arguments: "" },
      { kind: "compaction_started", compactionId: "c1", turnId: "t2", messageId: "m", trigger: "manual" },
      {
        kind: "compaction_ended",
        compactionId: "c1",
        turnId: "t2",
        outcome: "completed",
        summary: "The user read the README.",
      },
      { kind: "turn_ended", turnId: "t2", outcome: "completed", stopReason: "end_turn" },
      prompt("t3", "Next?"),
    ]);
    expect(messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: `${SUMMARY_PREFIX}The user read the README.\n</conversation-summary>` },
          { type: "text", text: "Next?" },
        ],
      },
    ]);
  });

  test("a compaction before a turn's first step keeps that turn's prompt, opened by the summary", () => {
    const messages = conversation([
      ...earlier,
      prompt("t2", "Now edit it"),
      { kind: "compaction_started", compactionId: "c1", turnId: "t2", messageId: "m", trigger: "auto" },
      { kind: "compaction_ended", compactionId: "c1", turnId: "t2", outcome: "completed", summary: "S." },
      ...answer("t2", "Edited."),
    ]);
    expect(messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: `${SUMMARY_PREFIX}S.\n</conversation-summary>` },
          { type: "text", text: "Now edit it" },
        ],
      },
      { role: "assistant", text: "Edited.", calls: [], model },
    ]);
  });

  test("a failed compaction leaves the context whole", () => {
    const facts: Fact[] = [...earlier, prompt("t2", "Now edit it")];
    const messages = conversation([
      ...facts,
      { kind: "compaction_started", compactionId: "c1", turnId: "t2", messageId: "m", trigger: "auto" },
      { kind: "compaction_ended", compactionId: "c1", turnId: "t2", outcome: "failed", error: "overloaded" },
    ]);
    expect(messages).toEqual(conversation(facts));
  });
});

describe("a refusal in the model's context", () => {
  const refused = (turnId: string, retracted: boolean): Fact[] => [
    prompt(turnId, "Something it will not do"),
    {
      kind: "message_chunk",
      stepId: `step_${turnId}`,
      messageId: `ans_${turnId}`,
      stream: "answer",
      text: "I can't help with that.",
    },
    {
      kind: "step_ended",
      turnId,
      stepId: `step_${turnId}`,
      model,
      outcome: "completed",
      stopReason: "refusal",
      calls: [],
    },
    {
      kind: "turn_ended",
      turnId,
      outcome: "completed",
      stopReason: "refusal",
      ...(retracted ? { retracted: true as const } : {}),
    },
  ];

  test("a retracted turn leaves the context: its prompt and everything after it (ACP's refusal)", () => {
    const messages = conversation([
      prompt("t1", "Read the README"),
      ...answer("t1", "It describes the project."),
      ...refused("t2", true),
      prompt("t3", "Go on"),
    ]);
    expect(messages.map((m) => (m.role === "user" ? m.content : m.role === "assistant" ? m.text : m.results))).toEqual([
      [{ type: "text", text: "Read the README" }],
      "It describes the project.",
      [{ type: "text", text: "Go on" }],
    ]);
  });

  test("a refusal recorded before retraction was kept stays in the context, as it did", () => {
    const messages = conversation([...refused("t1", false), prompt("t2", "Go on")]);
    expect(messages.length).toBe(3);
  });
});
