/**
 * OpenAI Responses stream events to the normalized provider events. Reasoning summaries are
 * shown as thinking; encrypted reasoning and item ids go to the step's continuity. Function
 * call arguments stream by output index.
 */
import type { Response, ResponseStreamEvent } from "openai/resources/responses/responses";
import { isTextRef, type LayoutItem } from "../assistant-layout.ts";
import { toErrorEvent } from "../retry-policy.ts";
import type { ProviderEvent, ProviderStopReason } from "../types.ts";
import type { ReasoningItem, ResponsesContinuity } from "./continuity.ts";

type Item = LayoutItem<ReasoningItem>;
type EventOf<K extends ResponseStreamEvent["type"]> = Extract<ResponseStreamEvent, { type: K }>;

/** What the response has streamed so far, for the step's continuity and its stop reason. */
type ResponseState = {
  items: Item[];
  byOutput: Map<number, Item>;
  /** Output indexes whose arguments streamed, so the done item's full arguments are not sent twice. */
  argsStreamed: Set<number>;
  /** The reasoning summary part last shown (`item_id:summary_index`). */
  lastSummary: string | undefined;
  thought: boolean;
  refused: boolean;
};

export async function* parseStream(events: AsyncIterable<ResponseStreamEvent>): AsyncGenerator<ProviderEvent> {
  const state: ResponseState = {
    items: [],
    byOutput: new Map(),
    argsStreamed: new Set(),
    lastSummary: undefined,
    thought: false,
    refused: false,
  };
  for await (const event of events) {
    switch (event.type) {
      case "response.output_item.added":
        yield* itemAdded(state, event);
        break;
      case "response.function_call_arguments.delta":
        state.argsStreamed.add(event.output_index);
        yield { type: "tool_call_delta", index: event.output_index, json: event.delta };
        break;
      case "response.output_text.delta":
      case "response.refusal.delta": {
        if (event.type === "response.refusal.delta") state.refused = true;
        const ref = state.byOutput.get(event.output_index);
        if (ref && isTextRef(ref)) ref.chars += event.delta.length;
        yield { type: "text_delta", text: event.delta };
        break;
      }
      case "response.reasoning_summary_text.delta":
        yield summaryDelta(state, event);
        break;
      case "response.output_item.done":
        yield* itemDone(state, event);
        break;
      case "response.completed":
      case "response.incomplete":
        yield* completed(state, event.response);
        return;
      case "response.failed":
        yield* failed(event.response);
        return;
      default:
        break;
    }
  }
}

/** An output item's start: its layout item (kept by output index) and, for a call, its start. */
function* itemAdded(state: ResponseState, event: EventOf<"response.output_item.added">): Generator<ProviderEvent> {
  const item = event.item;
  let ref: Item | undefined;
  if (item.type === "function_call") {
    ref = { type: "call", id: item.call_id, ...(item.id ? { itemId: item.id } : {}) };
    yield { type: "tool_call_start", index: event.output_index, providerCallId: item.call_id, name: item.name };
    if (item.arguments) {
      state.argsStreamed.add(event.output_index);
      yield { type: "tool_call_delta", index: event.output_index, json: item.arguments };
    }
  } else if (item.type === "message") {
    ref = { type: "text", chars: 0, id: item.id };
  } else if (item.type === "reasoning") {
    ref = { type: "reasoning", id: item.id, summary: [] };
  }
  if (ref) {
    state.items.push(ref);
    state.byOutput.set(event.output_index, ref);
  }
}

/** Summary parts are paragraphs: separate a new part from what was already shown. */
function summaryDelta(state: ResponseState, event: EventOf<"response.reasoning_summary_text.delta">): ProviderEvent {
  const key = `${event.item_id}:${event.summary_index}`;
  const text = state.thought && key !== state.lastSummary ? `\n\n${event.delta}` : event.delta;
  state.lastSummary = key;
  if (event.delta) state.thought = true;
  return { type: "thinking_delta", text };
}

/** An output item's end: a call ends (sending its arguments if none streamed); a reasoning item keeps its summary. */
function* itemDone(state: ResponseState, event: EventOf<"response.output_item.done">): Generator<ProviderEvent> {
  const item = event.item;
  const ref = state.byOutput.get(event.output_index);
  if (item.type === "function_call") {
    if (!state.argsStreamed.has(event.output_index) && item.arguments) {
      yield { type: "tool_call_delta", index: event.output_index, json: item.arguments };
    }
    yield { type: "tool_call_end", index: event.output_index };
  } else if (item.type === "reasoning" && ref?.type === "reasoning") {
    ref.summary = item.summary.map((s) => s.text);
    if (item.encrypted_content) ref.encrypted = item.encrypted_content;
  }
}

/** The response's end: its usage, its stop reason, and its items (less empty text) as the step's continuity. */
function* completed(state: ResponseState, response: Response): Generator<ProviderEvent> {
  const usage = usageOf(response);
  if (usage) yield usage;
  const hasCalls = state.items.some((i) => i.type === "call");
  const continuity: ResponsesContinuity = {
    format: "openai-responses/1",
    items: state.items.filter((i) => !isTextRef(i) || i.chars > 0),
  };
  yield { type: "done", stopReason: stopReason(response, hasCalls, state.refused), continuity };
}

/** A failed response: its usage, then an API error naming the provider's code. */
function* failed(response: Response): Generator<ProviderEvent> {
  const usage = usageOf(response);
  if (usage) yield usage;
  const error = response.error;
  yield toErrorEvent({
    kind: "api",
    message: `OpenAI: the response failed${error ? `: ${error.message} (${error.code})` : ""}`,
    ...(error ? { errorTypes: [error.code] } : {}),
  });
}

function stopReason(response: Response, hasCalls: boolean, refused: boolean): ProviderStopReason {
  const reason = response.status === "incomplete" ? response.incomplete_details?.reason : undefined;
  if (reason === "max_output_tokens") return "max_tokens";
  if (reason === "content_filter" || refused) return "refusal";
  return hasCalls ? "tool_use" : "end_turn";
}

function usageOf(response: Response): Extract<ProviderEvent, { type: "usage" }> | undefined {
  const u = response.usage;
  if (!u) return undefined;
  // Responses count cached tokens inside input_tokens; verbatim reports them apart.
  const cached = u.input_tokens_details?.cached_tokens ?? 0;
  return {
    type: "usage",
    inputTokens: u.input_tokens - cached,
    outputTokens: u.output_tokens,
    cacheReadTokens: cached,
  };
}
