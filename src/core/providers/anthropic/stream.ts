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

export async function* parseStream(events: AsyncIterable<RawMessageStreamEvent>): AsyncGenerator<ProviderEvent> {
  const blocks: LayoutItem<PrivateItem>[] = [];
  const byIndex = new Map<number, LayoutItem<PrivateItem>>();
  let usage: Usage = { type: "usage", inputTokens: 0, outputTokens: 0 };
  let stopReason: StopReason | null = null;
  for await (const event of events) {
    switch (event.type) {
      case "message_start": {
        const u = event.message.usage;
        usage = {
          type: "usage",
          inputTokens: u.input_tokens,
          outputTokens: u.output_tokens,
          ...(u.cache_read_input_tokens != null ? { cacheReadTokens: u.cache_read_input_tokens } : {}),
          ...(u.cache_creation_input_tokens != null ? { cacheWriteTokens: u.cache_creation_input_tokens } : {}),
        };
        yield usage;
        break;
      }
      case "content_block_start": {
        const block = event.content_block;
        let item: LayoutItem<PrivateItem> | undefined;
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
          blocks.push(item);
          byIndex.set(event.index, item);
        }
        break;
      }
      case "content_block_delta": {
        const item = byIndex.get(event.index);
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
        break;
      }
      case "content_block_stop":
        if (byIndex.get(event.index)?.type === "call") yield { type: "tool_call_end", index: event.index };
        break;
      case "message_delta": {
        stopReason = event.delta.stop_reason ?? stopReason;
        const u = event.usage;
        usage = {
          ...usage,
          outputTokens: u.output_tokens,
          ...(u.input_tokens != null ? { inputTokens: u.input_tokens } : {}),
          ...(u.cache_read_input_tokens != null ? { cacheReadTokens: u.cache_read_input_tokens } : {}),
          ...(u.cache_creation_input_tokens != null ? { cacheWriteTokens: u.cache_creation_input_tokens } : {}),
        };
        yield usage;
        break;
      }
      case "message_stop": {
        const continuity: AnthropicContinuity = {
          format: "anthropic-messages/1",
          blocks: blocks.filter((b) => !isTextRef(b) || b.chars > 0),
        };
        yield { type: "done", stopReason: mapStopReason(stopReason), continuity };
        return;
      }
    }
  }
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
