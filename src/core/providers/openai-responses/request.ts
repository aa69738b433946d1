/**
 * Lowering the provider-neutral conversation to an OpenAI Responses request. Stateless
 * (`store: false`): the whole conversation is sent each time, with each step's encrypted
 * reasoning (requested with `include: ["reasoning.encrypted_content"]`) given back in place.
 * A pure function of the request and the model's settings, so a reopened session sends the
 * same body.
 */
import type {
  ResponseCreateParamsStreaming,
  ResponseFunctionCallOutputItemList,
  ResponseInputContent,
  ResponseInputItem,
  ResponseReasoningItem,
} from "openai/resources/responses/responses";
import type { ModelMessage, ModelToolResult, UserPart } from "../../../replay/model-messages.ts";
import { arrange, type AssistantMessage } from "../assistant-layout.ts";
import type { ModelInfo } from "../known-models.ts";
import type { ProviderRequest } from "../types.ts";
import { readContinuity, type ReasoningItem } from "./continuity.ts";
import { defined } from "../../../shared/defined.ts";

/**
 * A reasoning item given back without its id: with `store: false` nothing is kept server-side,
 * and an id makes the API look the item up (and fail); the encrypted content carries it whole.
 */
type ReasoningInput = Omit<ResponseReasoningItem, "id">;

export function buildRequest(
  request: ProviderRequest,
  providerId: string,
  info: ModelInfo,
): ResponseCreateParamsStreaming {
  const reasons = info.thinking === "effort";
  const off = request.thoughtLevel === "off";
  return {
    model: request.model,
    stream: true,
    store: false,
    ...(request.system ? { instructions: request.system } : {}),
    // The one cast: reasoning items without ids (see ReasoningInput) are valid input the SDK's types do not describe.
    input: lowerInput(request.messages, providerId) as ResponseInputItem[],
    ...(request.tools.length
      ? {
          tools: request.tools.map((t) => ({
            type: "function" as const,
            name: t.name,
            description: t.description,
            parameters: t.inputSchema,
            strict: false,
          })),
        }
      : {}),
    ...defined({ max_output_tokens: info.configuredMaxOutput }),
    ...(reasons
      ? {
          reasoning: {
            effort: request.thoughtLevel === "off" ? (info.effortOff ?? "none") : request.thoughtLevel,
            ...(off ? {} : { summary: "auto" as const }),
          },
          include: ["reasoning.encrypted_content" as const],
        }
      : {}),
  };
}

function lowerInput(messages: ModelMessage[], providerId: string): (ResponseInputItem | ReasoningInput)[] {
  const input: (ResponseInputItem | ReasoningInput)[] = [];
  for (const m of messages) {
    if (m.role === "user") input.push({ type: "message", role: "user", content: m.content.map(userContent) });
    else if (m.role === "assistant") input.push(...assistantItems(m, providerId));
    else
      for (const r of m.results)
        input.push({ type: "function_call_output", call_id: r.providerCallId, output: resultOutput(r) });
  }
  return input;
}

/** A result's output: its text, or with images and PDFs, a list of text, image and file items. */
function resultOutput(result: ModelToolResult): string | ResponseFunctionCallOutputItemList {
  if (!result.attachments?.length) return result.text;
  const items: ResponseFunctionCallOutputItemList = result.text ? [{ type: "input_text", text: result.text }] : [];
  for (const a of result.attachments) {
    const url = `data:${a.mimeType};base64,${a.data}`;
    if (a.type === "image") items.push({ type: "input_image", detail: "auto", image_url: url });
    else items.push({ type: "input_file", filename: a.name, file_data: url });
  }
  return items;
}

function userContent(part: UserPart): ResponseInputContent {
  if (part.type === "text") return { type: "input_text", text: part.text };
  return { type: "input_image", detail: "auto", image_url: `data:${part.mimeType};base64,${part.data}` };
}

function assistantItems(message: AssistantMessage, providerId: string): (ResponseInputItem | ReasoningInput)[] {
  // Encrypted reasoning belongs to the provider that produced it.
  const continuity = message.model.provider === providerId ? readContinuity(message.continuity) : undefined;
  const parts = arrange<ReasoningItem>(message, continuity?.items);
  // A reasoning item must be followed by the output it led to; one left at the end (a reply cut
  // off while reasoning) is not given back.
  const lastOutput = parts.findLastIndex((p) => p.kind !== "private");
  return parts.slice(0, lastOutput + 1).flatMap((part): (ResponseInputItem | ReasoningInput)[] => {
    switch (part.kind) {
      case "text":
        return [{ type: "message", role: "assistant", content: part.text }];
      case "call":
        return [
          {
            type: "function_call",
            call_id: part.call.providerCallId,
            name: part.call.name,
            arguments: argumentsText(part.call.input),
          },
        ];
      case "private":
        // Without its encrypted content a reasoning item cannot be given back statelessly.
        if (part.item.encrypted === undefined) return [];
        return [
          {
            type: "reasoning",
            summary: part.item.summary.map((text) => ({ type: "summary_text" as const, text })),
            encrypted_content: part.item.encrypted,
          },
        ];
    }
  });
}

/** The call's arguments as the model wrote them: JSON, or the raw text when it was not JSON. */
const argumentsText = (input: unknown): string => (typeof input === "string" ? input : JSON.stringify(input));
