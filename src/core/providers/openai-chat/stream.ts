/**
 * Chat Completions chunks to the normalized provider events. Thinking comes from the
 * non-standard `reasoning_content` / `reasoning` delta fields (parsed with zod) or from
 * `<think>` tags at the start of the content. Tool calls stream by index; usage arrives in a
 * last chunk with no choices (`stream_options.include_usage`).
 */
import type { ChatCompletionChunk } from "openai/resources/chat/completions/completions";
import type { ProviderEvent, ProviderStopReason } from "../types.ts";
import { reasoningDelta, type ChatContinuity, type ReasoningField } from "./continuity.ts";
import { ThinkTagSplitter, type Piece } from "./think-tags.ts";
import { defined } from "../../../shared/defined.ts";

type Call = { id?: string; name?: string; started: boolean; pending: string };
type Delta = ChatCompletionChunk.Choice.Delta;
type ToolCallDelta = ChatCompletionChunk.Choice.Delta.ToolCall;
type Usage = Extract<ProviderEvent, { type: "usage" }>;

/** The step's tool calls by their place in the step, and where a server's index maps elsewhere. */
type Calls = {
  byIndex: Map<number, Call>;
  /** The server's tool call index → the call's place in the step, where they differ. */
  slots: Map<number, number>;
};

export async function* parseStream(chunks: AsyncIterable<ChatCompletionChunk>): AsyncGenerator<ProviderEvent> {
  const splitter = new ThinkTagSplitter();
  const calls: Calls = { byIndex: new Map(), slots: new Map() };
  let finish: string | undefined;
  let refused = false;
  let reasoning: { field: ReasoningField; text: string } | undefined;
  let usage: Usage | undefined;
  for await (const chunk of chunks) {
    if (chunk.usage) usage = usageOf(chunk.usage);
    const choice = chunk.choices[0];
    if (!choice) continue;
    const delta = choice.delta;
    const thought = reasoningOf(delta);
    if (thought) {
      reasoning = { field: thought.field, text: (reasoning?.text ?? "") + thought.text };
      yield { type: "thinking_delta", text: thought.text };
    }
    if (delta.content) yield* pieces(splitter.push(delta.content));
    if (delta.refusal) {
      refused = true;
      yield { type: "text_delta", text: delta.refusal };
    }
    for (const tc of delta.tool_calls ?? []) yield* callDelta(calls, tc);
    if (choice.finish_reason) finish = choice.finish_reason;
  }
  yield* pieces(splitter.flush());
  // No finish reason: the stream ended early; the guard reports it.
  if (!finish) return;
  for (const [index, call] of calls.byIndex) if (call.started) yield { type: "tool_call_end", index };
  if (usage) yield usage;
  const hasCalls = [...calls.byIndex.values()].some((c) => c.started);
  const continuity: ChatContinuity = { format: "openai-chat/1", ...defined({ reasoning }) };
  yield { type: "done", stopReason: stopReason(finish, hasCalls, refused), ...(reasoning ? { continuity } : {}) };
}

/** The last chunk's usage; cached prompt tokens are reported apart from the input. */
function usageOf(u: NonNullable<ChatCompletionChunk["usage"]>): Usage {
  const cached = u.prompt_tokens_details?.cached_tokens ?? 0;
  return {
    type: "usage",
    inputTokens: u.prompt_tokens - cached,
    outputTokens: u.completion_tokens,
    ...(cached ? { cacheReadTokens: cached } : {}),
  };
}

/** A delta's reasoning text and the non-standard field it came in (`reasoning_content` first). */
function reasoningOf(delta: Delta): { field: ReasoningField; text: string } | undefined {
  const extra = reasoningDelta.safeParse(delta);
  if (!extra.success) return undefined;
  const field: ReasoningField | undefined = extra.data.reasoning_content
    ? "reasoning_content"
    : extra.data.reasoning
      ? "reasoning"
      : undefined;
  const text = field ? extra.data[field] : undefined;
  return field && text ? { field, text } : undefined;
}

/** One tool call's delta: its arguments wait until its name is known, then stream. */
function* callDelta(calls: Calls, tc: ToolCallDelta): Generator<ProviderEvent> {
  const index = slotOf(calls, tc);
  const call = calls.byIndex.get(index) ?? { started: false, pending: "" };
  calls.byIndex.set(index, call);
  call.id ??= tc.id || undefined;
  call.name ??= tc.function?.name || undefined;
  const args = tc.function?.arguments ?? "";
  if (!call.started && call.name) {
    call.started = true;
    // A server that sends no call id gets one made from the call's place in the step.
    yield { type: "tool_call_start", index, providerCallId: call.id ?? `call_${index}`, name: call.name };
    if (call.pending) yield { type: "tool_call_delta", index, json: call.pending };
  }
  if (!args) return;
  if (call.started) yield { type: "tool_call_delta", index, json: args };
  else call.pending += args;
}

/** The call's place in the step. Some servers put every call at index 0; a new id at a used index is a new call. */
function slotOf(calls: Calls, tc: ToolCallDelta): number {
  let index = calls.slots.get(tc.index) ?? tc.index;
  const existing = calls.byIndex.get(index);
  if (tc.id && existing?.id && existing.id !== tc.id) {
    index = Math.max(...calls.byIndex.keys(), ...calls.slots.values()) + 1;
    calls.slots.set(tc.index, index);
  }
  return index;
}

function* pieces(list: Piece[]): Generator<ProviderEvent> {
  for (const p of list)
    yield p.stream === "thinking" ? { type: "thinking_delta", text: p.text } : { type: "text_delta", text: p.text };
}

function stopReason(finish: string, hasCalls: boolean, refused: boolean): ProviderStopReason {
  if (finish === "length") return "max_tokens";
  if (finish === "content_filter" || refused) return "refusal";
  // Some servers answer "stop" even when the reply holds tool calls.
  return hasCalls || finish === "tool_calls" || finish === "function_call" ? "tool_use" : "end_turn";
}
