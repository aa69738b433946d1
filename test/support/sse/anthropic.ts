/**
 * Anthropic Messages SSE streams, written from the documented format
 * (https://docs.anthropic.com/en/api/messages-streaming): `event:` + `data:` lines per event,
 * message_start, content blocks (start, deltas, stop), message_delta, message_stop, pings, and
 * `event: error` for a failure mid-stream.
 */
import { halves, pieces } from "./pieces.ts";

export type AnthropicBlock =
  | { type: "text"; text: string }
  | { type: "thinking"; thinking: string; signature: string }
  | { type: "redacted_thinking"; data: string }
  | { type: "tool_use"; id: string; name: string; input: unknown };

export type AnthropicUsage = { input: number; output: number; cacheRead?: number; cacheWrite?: number };

const event = (name: string, data: Record<string, unknown>) =>
  `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`;

export function anthropicStream(
  blocks: AnthropicBlock[],
  options: { stopReason?: string; usage?: AnthropicUsage; model?: string } = {},
): string[] {
  const usage = options.usage ?? { input: 120, output: 40 };
  const events = [
    event("message_start", {
      message: {
        id: "msg_fixture_1",
        type: "message",
        role: "assistant",
        model: options.model ?? "claude-sonnet-4-6",
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: usage.input,
          output_tokens: 1,
          cache_creation_input_tokens: usage.cacheWrite ?? 0,
          cache_read_input_tokens: usage.cacheRead ?? 0,
        },
      },
    }),
    event("ping", {}),
  ];
  blocks.forEach((block, index) => events.push(...blockEvents(block, index)));
  events.push(
    event("message_delta", {
      delta: {
        stop_reason: options.stopReason ?? (blocks.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn"),
        stop_sequence: null,
      },
      usage: { output_tokens: usage.output },
    }),
    event("message_stop", {}),
  );
  return events;
}

function blockEvents(block: AnthropicBlock, index: number): string[] {
  const start = (content_block: Record<string, unknown>) => event("content_block_start", { index, content_block });
  const delta = (d: Record<string, unknown>) => event("content_block_delta", { index, delta: d });
  const stop = event("content_block_stop", { index });
  switch (block.type) {
    case "text":
      return [
        start({ type: "text", text: "" }),
        ...pieces(block.text).map((text) => delta({ type: "text_delta", text })),
        stop,
      ];
    case "thinking":
      return [
        start({ type: "thinking", thinking: "", signature: "" }),
        ...pieces(block.thinking).map((thinking) => delta({ type: "thinking_delta", thinking })),
        delta({ type: "signature_delta", signature: block.signature }),
        stop,
      ];
    case "redacted_thinking":
      return [start({ type: "redacted_thinking", data: block.data }), stop];
    case "tool_use":
      return [
        start({ type: "tool_use", id: block.id, name: block.name, input: {} }),
        ...halves(JSON.stringify(block.input)).map((partial_json) => delta({ type: "input_json_delta", partial_json })),
        stop,
      ];
  }
}

/** The stream cut after `keep` events (for a connection that drops part of the way through). */
export const cut = (events: string[], keep: number) => events.slice(0, keep);

/** An error event in the middle of a stream, as the API sends when it is overloaded. */
export const anthropicErrorEvent = (type = "overloaded_error", message = "Overloaded") =>
  `event: error\ndata: ${JSON.stringify({ type: "error", error: { type, message } })}\n\n`;

/** The JSON body of an HTTP error. */
export const anthropicErrorBody = (type: string, message: string) => ({ type: "error", error: { type, message } });
