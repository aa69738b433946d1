/**
 * Lowering the provider-neutral conversation to an OpenAI-compatible Chat Completions request
 * (Ollama, vLLM, llama.cpp server, LM Studio, OpenRouter, DeepSeek, Qwen). Streamed usage needs
 * `stream_options.include_usage`. A pure function of the request and the model's settings, so a
 * reopened session sends the same body.
 */
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionContentPart,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
  ChatCompletionUserMessageParam,
} from "openai/resources/chat/completions/completions";
import type { ModelMessage, ModelToolResult, UserPart } from "../../../replay/model-messages.ts";
import type { AssistantMessage } from "../assistant-layout.ts";
import type { ModelInfo } from "../known-models.ts";
import type { ProviderRequest } from "../types.ts";
import { readContinuity } from "./continuity.ts";
import { defined } from "../../../shared/defined.ts";

/** An assistant message with the reasoning field some servers take back (non-standard). */
type AssistantWithReasoning = ChatCompletionAssistantMessageParam & { reasoning_content?: string; reasoning?: string };

export function buildRequest(
  request: ProviderRequest,
  providerId: string,
  info: ModelInfo,
): ChatCompletionCreateParamsStreaming {
  return {
    model: request.model,
    stream: true,
    stream_options: { include_usage: true },
    messages: [
      ...(request.system ? [{ role: "system" as const, content: request.system }] : []),
      ...lowerMessages(request.messages, providerId),
    ],
    ...(request.tools.length
      ? {
          tools: request.tools.map((t) => ({
            type: "function" as const,
            function: { name: t.name, description: t.description, parameters: t.inputSchema },
          })),
        }
      : {}),
    // `max_tokens` rather than `max_completion_tokens`: the one every compatible server reads.
    ...defined({ max_tokens: info.configuredMaxOutput }),
    ...(info.thinking === "effort"
      ? { reasoning_effort: request.thoughtLevel === "off" ? "none" : request.thoughtLevel }
      : {}),
  };
}

export function lowerMessages(messages: ModelMessage[], providerId: string): ChatCompletionMessageParam[] {
  const lastUser = messages.findLastIndex((m) => m.role === "user");
  const out: ChatCompletionMessageParam[] = [];
  messages.forEach((m, i) => {
    if (m.role === "user") out.push(userMessage(m.content));
    // Reasoning is given back only within the current turn (the servers that take it drop it
    // from earlier turns anyway).
    else if (m.role === "assistant") out.push(assistantMessage(m, providerId, i > lastUser));
    else out.push(...resultMessages(m.results));
  });
  return out;
}

/**
 * Results as `tool` messages, which hold text only: a PDF's text goes into its result; images
 * follow the results in one user message, each named by the call it came from.
 */
function resultMessages(results: ModelToolResult[]): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  const beside: ChatCompletionContentPart[] = [];
  for (const r of results) {
    const documents = (r.attachments ?? []).flatMap((a) =>
      a.type === "document" ? [`<document name="${a.name}">\n${a.text}\n</document>`] : [],
    );
    out.push({ role: "tool", tool_call_id: r.providerCallId, content: [r.text, ...documents].join("\n\n") });
    const images = (r.attachments ?? []).flatMap((a) => (a.type === "image" ? [a] : []));
    if (images.length === 0) continue;
    beside.push({
      type: "text",
      text: `The ${images.length === 1 ? "image" : "images"} read by call ${r.providerCallId}:`,
    });
    for (const image of images) beside.push(contentPart({ type: "image", data: image.data, mimeType: image.mimeType }));
  }
  if (beside.length) out.push({ role: "user", content: beside });
  return out;
}

function userMessage(parts: UserPart[]): ChatCompletionUserMessageParam {
  const [only] = parts;
  if (parts.length === 1 && only?.type === "text") return { role: "user", content: only.text };
  return { role: "user", content: parts.map(contentPart) };
}

function contentPart(part: UserPart): ChatCompletionContentPart {
  if (part.type === "text") return { type: "text", text: part.text };
  return { type: "image_url", image_url: { url: `data:${part.mimeType};base64,${part.data}` } };
}

function assistantMessage(message: AssistantMessage, providerId: string, currentTurn: boolean): AssistantWithReasoning {
  const continuity =
    currentTurn && message.model.provider === providerId ? readContinuity(message.continuity) : undefined;
  const reasoning = continuity?.reasoning;
  return {
    role: "assistant",
    content: message.text || (message.calls.length ? null : ""),
    ...(message.calls.length
      ? {
          tool_calls: message.calls.map((c) => ({
            id: c.providerCallId,
            type: "function" as const,
            function: { name: c.name, arguments: typeof c.input === "string" ? c.input : JSON.stringify(c.input) },
          })),
        }
      : {}),
    ...(reasoning ? { [reasoning.field]: reasoning.text } : {}),
  };
}
