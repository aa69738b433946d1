/** Building blocks for scripted scenarios: deterministic provider events, no network. */
import type { ThoughtLevel } from "../../config/thought-levels.ts";
import type { ProviderEvent, ProviderStopReason } from "../types.ts";
import type { ModelToolResult } from "../../../replay/model-messages.ts";

export type ScriptEvent = ProviderEvent | { type: "pause"; ms: number };

export type ScriptContext = {
  cwd: string;
  thoughtLevel: ThoughtLevel;
  /**
   * The text of the prompt being answered, as the user wrote it (scenarios that act on what the
   * user asked read it); never a compaction summary that opened it.
   */
  prompt: string;
  /** Whether a compaction summary opened the prompt's message (the model's context restarted from it). */
  summarised: boolean;
  /** The images of the prompt being answered, as the model received them. */
  images: { mimeType: string; bytes: number }[];
  /** The names of the tools the request offers. */
  tools: string[];
  /** The results of the previous step's tool calls, in call order. */
  results: ModelToolResult[];
  /**
   * The tool calls the conversation made so far, as the request shows them: those of its
   * assistant messages, and those a compaction summary opening it counted (the scripted summary says how many).
   */
  callsSoFar: number;
  /** Which prompt of the session this is (0-based) and which step of its turn. */
  promptIndex: number;
  stepIndex: number;
};

/** One model step: the events it streams. */
export type Step = (ctx: ScriptContext) => ScriptEvent[];

/**
 * What each prompt does, step by step. Prompt k plays `prompts[k % prompts.length]`.
 * `contextWindow` is the window the scenario's model reports (default 200,000 tokens); `loops`:
 * a prompt's one step plays at every step of its turn (the step decides when the turn ends).
 */
export type Scenario = { description: string; prompts: Step[][]; contextWindow?: number; loops?: true };

/** Splits text into word-sized deltas, the way providers stream it. */
function pieces(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

export const say = (text: string, pauseMs = 0): ScriptEvent[] =>
  pieces(text).flatMap((t) => [
    ...(pauseMs ? [{ type: "pause", ms: pauseMs } as const] : []),
    { type: "text_delta", text: t } as const,
  ]);

export const think = (text: string, pauseMs = 0): ScriptEvent[] =>
  pieces(text).flatMap((t) => [
    ...(pauseMs ? [{ type: "pause", ms: pauseMs } as const] : []),
    { type: "thinking_delta", text: t } as const,
  ]);

/** A tool call with its JSON arguments streamed in two halves. */
export function call(index: number, providerCallId: string, name: string, input: unknown): ScriptEvent[] {
  const json = JSON.stringify(input);
  const half = Math.ceil(json.length / 2);
  return [
    { type: "tool_call_start", index, providerCallId, name },
    { type: "tool_call_delta", index, json: json.slice(0, half) },
    { type: "tool_call_delta", index, json: json.slice(half) },
    { type: "tool_call_end", index },
  ];
}

export const done = (stopReason: ProviderStopReason = "end_turn"): ScriptEvent[] => [{ type: "done", stopReason }];

export const fail = (message: string, retryable = false): ScriptEvent[] => [{ type: "error", message, retryable }];
