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

export async function* parseStream(events: AsyncIterable<ResponseStreamEvent>): AsyncGenerator<ProviderEvent> {
  const items: Item[] = [];
  const byOutput = new Map<number, Item>();
  const argsStreamed = new Set<number>();
  let lastSummary: string | undefined;
  let thought = false;
  let refused = false;
  for await (const event of events) {
    switch (event.type) {
      case "response.output_item.added": {
        const item = event.item;
        let ref: Item | undefined;
        if (item.type === "function_call") {
          ref = { type: "call", id: item.call_id, ...(item.id ? { itemId: item.id } : {}) };
          yield { type: "tool_call_start", index: event.output_index, providerCallId: item.call_id, name: item.name };
          if (item.arguments) {
            argsStreamed.add(event.output_index);
            yield { type: "tool_call_delta", index: event.output_index, json: item.arguments };
          }
        } else if (item.type === "message") {
          ref = { type: "text", chars: 0, id: item.id };
        } else if (item.type === "reasoning") {
          ref = { type: "reasoning", id: item.id, summary: [] };
        }
        if (ref) {
          items.push(ref);
          byOutput.set(event.output_index, ref);
        }
        break;
      }
      case "response.function_call_arguments.delta":
        argsStreamed.add(event.output_index);
        yield { type: "tool_call_delta", index: event.output_index, json: event.delta };
        break;
      case "response.output_text.delta":
      case "response.refusal.delta": {
        if (event.type === "response.refusal.delta") refused = true;
        const ref = byOutput.get(event.output_index);
        if (ref && isTextRef(ref)) ref.chars += event.delta.length;
        yield { type: "text_delta", text: event.delta };
        break;
      }
      case "response.reasoning_summary_text.delta": {
        // Summary parts are paragraphs: separate a new part from what was already shown.
        const key = `${event.item_id}:${event.summary_index}`;
        const text = thought && key !== lastSummary ? `\n\n${event.delta}` : event.delta;
        lastSummary = key;
        if (event.delta) thought = true;
        yield { type: "thinking_delta", text };
        break;
      }
      case "response.output_item.done": {
        const item = event.item;
        const ref = byOutput.get(event.output_index);
        if (item.type === "function_call") {
          if (!argsStreamed.has(event.output_index) && item.arguments) {
            yield { type: "tool_call_delta", index: event.output_index, json: item.arguments };
          }
          yield { type: "tool_call_end", index: event.output_index };
        } else if (item.type === "reasoning" && ref?.type === "reasoning") {
          ref.summary = item.summary.map((s) => s.text);
          if (item.encrypted_content) ref.encrypted = item.encrypted_content;
        }
        break;
      }
      case "response.completed":
      case "response.incomplete": {
        const usage = usageOf(event.response);
        if (usage) yield usage;
        const hasCalls = items.some((i) => i.type === "call");
        const continuity: ResponsesContinuity = {
          format: "openai-responses/1",
          items: items.filter((i) => !isTextRef(i) || i.chars > 0),
        };
        yield { type: "done", stopReason: stopReason(event.response, hasCalls, refused), continuity };
        return;
      }
      case "response.failed": {
        const usage = usageOf(event.response);
        if (usage) yield usage;
        const error = event.response.error;
        yield toErrorEvent({
          kind: "api",
          message: `OpenAI: the response failed${error ? `: ${error.message} (${error.code})` : ""}`,
          ...(error ? { errorTypes: [error.code] } : {}),
        });
        return;
      }
      default:
        break;
    }
  }
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
