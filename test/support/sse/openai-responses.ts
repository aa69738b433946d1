/**
 * OpenAI Responses SSE streams, written from the documented streaming events
 * (https://platform.openai.com/docs/api-reference/responses-streaming): response.created,
 * output items added/done, reasoning summary text deltas, output text deltas, function call
 * argument deltas, and response.completed / response.incomplete / response.failed.
 */
import { halves, pieces } from "./pieces.ts";

export type ResponsesItem =
  | { type: "reasoning"; id: string; summary: string[]; encrypted: string }
  | { type: "message"; id: string; text: string }
  | { type: "function_call"; id: string; callId: string; name: string; input: unknown };

export type ResponsesUsage = { input: number; output: number; cached?: number; reasoning?: number };

export function responsesStream(
  items: ResponsesItem[],
  options: {
    status?: "completed" | "incomplete";
    incompleteReason?: string;
    usage?: ResponsesUsage;
    model?: string;
  } = {},
): string[] {
  let seq = 0;
  const event = (type: string, data: Record<string, unknown>) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`;
  const base = {
    id: "resp_fixture_1",
    object: "response",
    created_at: 1_700_000_000,
    model: options.model ?? "gpt-5.4",
    output: [] as unknown[],
  };
  const events = [event("response.created", { response: { ...base, status: "in_progress", usage: null } })];
  const done: unknown[] = [];
  items.forEach((item, output_index) => {
    switch (item.type) {
      case "reasoning": {
        events.push(
          event("response.output_item.added", { output_index, item: { id: item.id, type: "reasoning", summary: [] } }),
        );
        item.summary.forEach((text, summary_index) => {
          const ids = { item_id: item.id, output_index, summary_index };
          events.push(
            event("response.reasoning_summary_part.added", { ...ids, part: { type: "summary_text", text: "" } }),
          );
          for (const delta of pieces(text))
            events.push(event("response.reasoning_summary_text.delta", { ...ids, delta }));
          events.push(event("response.reasoning_summary_text.done", { ...ids, text }));
          events.push(event("response.reasoning_summary_part.done", { ...ids, part: { type: "summary_text", text } }));
        });
        const full = {
          id: item.id,
          type: "reasoning",
          summary: item.summary.map((text) => ({ type: "summary_text", text })),
          encrypted_content: item.encrypted,
        };
        events.push(event("response.output_item.done", { output_index, item: full }));
        done.push(full);
        break;
      }
      case "message": {
        const ids = { item_id: item.id, output_index, content_index: 0 };
        events.push(
          event("response.output_item.added", {
            output_index,
            item: { id: item.id, type: "message", status: "in_progress", role: "assistant", content: [] },
          }),
        );
        events.push(
          event("response.content_part.added", { ...ids, part: { type: "output_text", text: "", annotations: [] } }),
        );
        for (const delta of pieces(item.text))
          events.push(event("response.output_text.delta", { ...ids, delta, logprobs: [] }));
        events.push(event("response.output_text.done", { ...ids, text: item.text, logprobs: [] }));
        const part = { type: "output_text", text: item.text, annotations: [] };
        events.push(event("response.content_part.done", { ...ids, part }));
        const full = { id: item.id, type: "message", status: "completed", role: "assistant", content: [part] };
        events.push(event("response.output_item.done", { output_index, item: full }));
        done.push(full);
        break;
      }
      case "function_call": {
        const args = JSON.stringify(item.input);
        const head = { id: item.id, type: "function_call", call_id: item.callId, name: item.name };
        events.push(
          event("response.output_item.added", {
            output_index,
            item: { ...head, status: "in_progress", arguments: "" },
          }),
        );
        for (const delta of halves(args))
          events.push(event("response.function_call_arguments.delta", { item_id: item.id, output_index, delta }));
        events.push(
          event("response.function_call_arguments.done", { item_id: item.id, output_index, arguments: args }),
        );
        const full = { ...head, status: "completed", arguments: args };
        events.push(event("response.output_item.done", { output_index, item: full }));
        done.push(full);
        break;
      }
    }
  });
  const usage = options.usage ?? { input: 150, output: 60 };
  const status = options.status ?? "completed";
  events.push(
    event(`response.${status}`, {
      response: {
        ...base,
        status,
        output: done,
        incomplete_details:
          status === "incomplete" ? { reason: options.incompleteReason ?? "max_output_tokens" } : null,
        usage: {
          input_tokens: usage.input,
          input_tokens_details: { cached_tokens: usage.cached ?? 0 },
          output_tokens: usage.output,
          output_tokens_details: { reasoning_tokens: usage.reasoning ?? 0 },
          total_tokens: usage.input + usage.output,
        },
      },
    }),
  );
  return events;
}

/** The JSON body of an HTTP error. */
export const openaiErrorBody = (type: string, message: string, code: string | null = null) => ({
  error: { message, type, param: null, code },
});
