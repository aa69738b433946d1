/**
 * Anthropic's stream events to the normalized provider events. Thinking text is shown;
 * signatures and redacted thinking are kept in the step's continuity; a redacted block is shown
 * as a short notice. Tool input streams as JSON deltas by content block index.
 */
import type { RawMessageStreamEvent, StopReason } from "@anthropic-ai/sdk/resources/messages";
import { isTextRef, type LayoutItem } from "../assistant-layout.ts";
import type { ProviderEvent, ProviderStopReason } from "../types.ts";
import type { AnthropicContinuity, PrivateItem } from "./continuity.ts";

const REDACTED_NOTICE =
  "Part of the model's reasoning was redacted by the provider's safety systems; it is kept, encrypted, for the model and not shown.";

type Usage = Extract<ProviderEvent, { type: "usage" }>;
type EventOf<K extends RawMessageStreamEvent["type"]> = Extract<RawMessageStreamEvent, { type: K }>;
type Item = LayoutItem<PrivateItem>;

/** What the message has streamed so far: its blocks in order (and by index), its usage and stop reason. */
type MessageState = {
  blocks: Item[];
  byIndex: Map<number, Item>;
  usage: Usage;
  stopReason: StopReason | null;
};

export async function* parseStream(events: AsyncIterable<RawMessageStreamEvent>): AsyncGenerator<ProviderEvent> {
  const state: MessageState = {
    blocks: [],
    byIndex: new Map(),
    usage: { type: "usage", inputTokens: 0, outputTokens: 0 },
    stopReason: null,
  };
  for await (const event of events) {
    switch (event.type) {
      case "message_start":
        state.usage = startUsage(event);
        yield state.usage;
        break;
      case "content_block_start":
        yield* startBlock(state, event);
        break;
      case "content_block_delta":
        yield* blockDelta(state.byIndex.get(event.index), event);
        break;
      case "content_block_stop":
        if (state.byIndex.get(event.index)?.type === "call") yield { type: "tool_call_end", index: event.index };
        break;
      case "message_delta":
        state.stopReason = event.delta.stop_reason ?? state.stopReason;
        state.usage = deltaUsage(state.usage, event);
        yield state.usage;
        break;
      case "message_stop":
        yield done(state);
        return;
    }
  }
}

/** The usage the message starts with (its input, and the cache's reads and writes). */
function startUsage(event: EventOf<"message_start">): Usage {
  const u = event.message.usage;
  return {
    type: "usage",
    inputTokens: u.input_tokens,
    outputTokens: u.output_tokens,
    ...(u.cache_read_input_tokens != null ? { cacheReadTokens: u.cache_read_input_tokens } : {}),
    ...(u.cache_creation_input_tokens != null ? { cacheWriteTokens: u.cache_creation_input_tokens } : {}),
  };
}

/** A message delta's usage replaces the counts it gives; the others stay. */
function deltaUsage(usage: Usage, event: EventOf<"message_delta">): Usage {
  const u = event.usage;
  return {
    ...usage,
    outputTokens: u.output_tokens,
    ...(u.input_tokens != null ? { inputTokens: u.input_tokens } : {}),
    ...(u.cache_read_input_tokens != null ? { cacheReadTokens: u.cache_read_input_tokens } : {}),
    ...(u.cache_creation_input_tokens != null ? { cacheWriteTokens: u.cache_creation_input_tokens } : {}),
  };
}

/** A block's start: its layout item (kept by index for its deltas) and what it shows at once. */
function* startBlock(state: MessageState, event: EventOf<"content_block_start">): Generator<ProviderEvent> {
  const block = event.content_block;
  let item: Item | undefined;
  if (block.type === "text") {
    item = { type: "text", chars: block.text.length };
    if (block.text) yield { type: "text_delta", text: block.text };
  } else if (block.type === "thinking") {
    item = { type: "thinking", thinking: block.thinking, signature: block.signature };
    if (block.thinking) yield { type: "thinking_delta", text: block.thinking };
  } else if (block.type === "redacted_thinking") {
    item = { type: "redacted_thinking", data: block.data };
    yield { type: "notice", severity: "info", title: REDACTED_NOTICE };
  } else if (block.type === "tool_use") {
    item = { type: "call", id: block.id };
    yield { type: "tool_call_start", index: event.index, providerCallId: block.id, name: block.name };
  }
  if (item) {
    state.blocks.push(item);
    state.byIndex.set(event.index, item);
  }
}

/** A block's delta grows its item (text length, thinking, signature) and shows what is shown. */
function* blockDelta(item: Item | undefined, event: EventOf<"content_block_delta">): Generator<ProviderEvent> {
  const delta = event.delta;
  if (delta.type === "text_delta" && item && isTextRef(item)) {
    item.chars += delta.text.length;
    yield { type: "text_delta", text: delta.text };
  } else if (delta.type === "thinking_delta" && item?.type === "thinking") {
    item.thinking += delta.thinking;
    yield { type: "thinking_delta", text: delta.thinking };
  } else if (delta.type === "signature_delta" && item?.type === "thinking") {
    item.signature += delta.signature;
  } else if (delta.type === "input_json_delta" && item?.type === "call") {
    yield { type: "tool_call_delta", index: event.index, json: delta.partial_json };
  }
}

/** The message's end: its stop reason, and its blocks (less empty text) as the step's continuity. */
function done(state: MessageState): ProviderEvent {
  const continuity: AnthropicContinuity = {
    format: "anthropic-messages/1",
    blocks: state.blocks.filter((b) => !isTextRef(b) || b.chars > 0),
  };
  return { type: "done", stopReason: mapStopReason(state.stopReason), continuity };
}

function mapStopReason(reason: StopReason | null): ProviderStopReason {
  switch (reason) {
    case "tool_use":
      return "tool_use";
    case "max_tokens":
    case "model_context_window_exceeded":
      return "max_tokens";
    case "refusal":
      return "refusal";
    default:
      return "end_turn";
  }
}
