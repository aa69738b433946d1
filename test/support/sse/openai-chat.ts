/**
 * OpenAI-compatible Chat Completions SSE streams, written from the documented chunk format
 * (https://platform.openai.com/docs/api-reference/chat-streaming): `data:` lines of
 * chat.completion.chunk objects, tool calls by index, a finish_reason, a last chunk with no
 * choices carrying usage (`stream_options.include_usage`), then `data: [DONE]`. Servers such as
 * DeepSeek and vLLM add `reasoning_content`, Ollama and OpenRouter `reasoning`.
 */
import { halves, pieces } from "./pieces.ts";

export type ChatCall = { id: string; name: string; input: unknown };

export type ChatReply = {
  reasoning?: { field: "reasoning_content" | "reasoning"; text: string };
  content?: string;
  calls?: ChatCall[];
  finish?: "stop" | "tool_calls" | "length" | "content_filter";
  usage?: { prompt: number; completion: number; cached?: number };
};

export function chatStream(reply: ChatReply, options: { model?: string; done?: boolean } = {}): string[] {
  const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    `data: ${JSON.stringify({ id: "chatcmpl-fixture-1", object: "chat.completion.chunk", created: 1_700_000_000, model: options.model ?? "qwen3", choices, ...extra })}\n\n`;
  const delta = (d: Record<string, unknown>, finish: string | null = null) =>
    chunk([{ index: 0, delta: d, finish_reason: finish }]);
  const events = [delta({ role: "assistant", content: "" })];
  if (reply.reasoning) {
    const { field, text } = reply.reasoning;
    for (const piece of pieces(text)) events.push(delta({ content: null, [field]: piece }));
  }
  for (const piece of pieces(reply.content ?? "")) events.push(delta({ content: piece }));
  (reply.calls ?? []).forEach((call, index) => {
    events.push(
      delta({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }] }),
    );
    for (const part of halves(JSON.stringify(call.input)))
      events.push(delta({ tool_calls: [{ index, function: { arguments: part } }] }));
  });
  events.push(delta({}, reply.finish ?? (reply.calls?.length ? "tool_calls" : "stop")));
  const usage = reply.usage ?? { prompt: 90, completion: 30 };
  events.push(
    chunk([], {
      usage: {
        prompt_tokens: usage.prompt,
        completion_tokens: usage.completion,
        total_tokens: usage.prompt + usage.completion,
        ...(usage.cached !== undefined ? { prompt_tokens_details: { cached_tokens: usage.cached } } : {}),
      },
    }),
  );
  if (options.done !== false) events.push("data: [DONE]\n\n");
  return events;
}
