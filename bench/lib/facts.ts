/**
 * Realistic facts for the journal benchmarks: a session's first fact, and turns made of a
 * prompt, streamed thinking, an answer, a Read tool call with its output, the answer after it,
 * usage and the turn's end, with the sizes a real session has.
 */
import type { Fact } from "../../src/journal/facts/index.ts";

export const startFact = (cwd: string): Fact => ({
  kind: "session_started",
  cwd,
  additionalDirectories: [],
  agentVersion: "bench",
  systemPrompt: "You are verbatim, a coding agent. ".repeat(60),
  tools: [
    {
      name: "Read",
      description: "Reads a file. ".repeat(20),
      inputSchema: { type: "object", properties: { file_path: { type: "string" } } },
    },
    {
      name: "TodoWrite",
      description: "Writes the plan. ".repeat(20),
      inputSchema: { type: "object", properties: { todos: { type: "array" } } },
    },
  ],
  modes: {
    currentModeId: "default",
    availableModes: [
      { id: "default", name: "Default" },
      { id: "plan", name: "Plan" },
    ],
  },
  configOptions: [
    {
      id: "mode",
      name: "Mode",
      type: "select",
      currentValue: "default",
      options: [{ value: "default", name: "Default" }],
    },
  ],
});

/** How a benchmark turn is made: chunk counts per stream, and the tool output's size. */
export type TurnShape = { thinkingChunks: number; answerChunks: number; afterChunks: number; outputLines: number };

/** A turn as a streaming provider delivers it: thinking and answers in chunks of a word or two. */
export const STREAMED_TURN: TurnShape = { thinkingChunks: 20, answerChunks: 20, afterChunks: 20, outputLines: 40 };

/**
 * The least a turn with thinking, an answer and a tool call can be: each text in one chunk (as a
 * provider that does not stream, or a very short answer, delivers it); the same tool call.
 */
export const WHOLE_TURN: TurnShape = { thinkingChunks: 1, answerChunks: 1, afterChunks: 1, outputLines: 40 };

const WORDS = [
  "the",
  "journal",
  "records",
  "every",
  "fact",
  "as",
  "it",
  "happens,",
  "and",
  "replay",
  "shows",
  "it",
  "again.",
];
const word = (i: number) => `${WORDS[i % WORDS.length]} `;

/** The facts of turn `t` of a session in `cwd`, in order. */
export function turnFacts(t: number, cwd: string, shape: TurnShape = STREAMED_TURN): Fact[] {
  const turnId = `turn_${t}`;
  const step1 = `step_${t}_1`;
  const step2 = `step_${t}_2`;
  const model = { provider: "anthropic", model: "claude-sonnet-4-5" };
  const callId = `call_${t}`;
  const path = `${cwd}/src/module-${t % 50}.ts`;
  const output = Array.from(
    { length: shape.outputLines },
    (_, i) => `${String(i + 1).padStart(6)}\texport const value${i} = compute(${i}, "text");`,
  ).join("\n");
  const facts: Fact[] = [
    {
      kind: "prompt_received",
      turnId,
      messageId: `msg_${t}_u`,
      blocks: [{ type: "text", text: `Please look at module ${t % 50} and explain what it does.` }],
    },
  ];
  if (t === 0) facts.push({ kind: "title_set", title: "Please look at module 0 and explain what it does." });
  for (let i = 0; i < shape.thinkingChunks; i++) {
    facts.push({ kind: "message_chunk", stepId: step1, messageId: `msg_${t}_th`, stream: "thought", text: word(i) });
  }
  for (let i = 0; i < shape.answerChunks; i++) {
    facts.push({ kind: "message_chunk", stepId: step1, messageId: `msg_${t}_a1`, stream: "answer", text: word(i + 3) });
  }
  facts.push(
    {
      kind: "step_ended",
      turnId,
      stepId: step1,
      model,
      outcome: "completed",
      stopReason: "tool_use",
      calls: [{ toolCallId: callId, providerCallId: `toolu_${t}`, name: "Read", input: { file_path: path } }],
      continuity: { signature: "c2lnbmF0dXJl".repeat(20) },
    },
    {
      kind: "usage_recorded",
      stepId: step1,
      inputTokens: 12_000 + t,
      outputTokens: 300,
      used: 12_300 + t,
      size: 200_000,
    },
    {
      kind: "tool_call_announced",
      toolCallId: callId,
      name: "Read",
      title: `Read src/module-${t % 50}.ts`,
      toolKind: "read",
      rawInput: { file_path: path },
      locations: [{ path }],
      content: [],
    },
    { kind: "tool_call_started", toolCallId: callId },
    {
      kind: "tool_call_finished",
      toolCallId: callId,
      status: "completed",
      content: [{ type: "content", content: { type: "text", text: `\`\`\`\n${output}\n\`\`\`` } }],
      result: { text: output, isError: false },
    },
  );
  for (let i = 0; i < shape.afterChunks; i++) {
    facts.push({ kind: "message_chunk", stepId: step2, messageId: `msg_${t}_a2`, stream: "answer", text: word(i + 7) });
  }
  facts.push(
    { kind: "step_ended", turnId, stepId: step2, model, outcome: "completed", stopReason: "end_turn", calls: [] },
    {
      kind: "usage_recorded",
      stepId: step2,
      inputTokens: 13_000 + t,
      outputTokens: 200,
      used: 13_200 + t,
      size: 200_000,
    },
    { kind: "turn_ended", turnId, outcome: "completed", stopReason: "end_turn" },
  );
  return facts;
}

/** Chunk facts, as a live answer streams them. */
export const chunkFact = (i: number): Fact => ({
  kind: "message_chunk",
  stepId: "step_1",
  messageId: "msg_1",
  stream: "answer",
  text: word(i),
});
