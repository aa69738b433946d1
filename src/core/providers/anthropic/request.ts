/**
 * Lowering the provider-neutral conversation to an Anthropic Messages request. A pure function
 * of the request and the model's settings, so a reopened session sends the same body.
 *
 * Prompt caching: breakpoints on the system prompt, the last tool and the last block of the
 * conversation, so each step reads the previous step's prefix from the cache.
 */
import type {
  ContentBlockParam,
  ImageBlockParam,
  MessageCreateParamsStreaming,
  MessageParam,
  TextBlockParam,
  Tool,
  ToolResultBlockParam,
} from "@anthropic-ai/sdk/resources/messages";
import { z } from "zod";
import type { ModelMessage, ModelToolResult, UserPart } from "../../../replay/model-messages.ts";
import { arrange, type AssistantMessage } from "../assistant-layout.ts";
import type { ModelInfo } from "../known-models.ts";
import type { ProviderRequest } from "../types.ts";
import { readContinuity, type PrivateItem } from "./continuity.ts";
import { thinkingParams } from "./thinking.ts";

const CACHE = { type: "ephemeral" } as const;
const IMAGE_TYPES = ["image/jpeg", "image/png", "image/gif", "image/webp"] as const;

export function buildRequest(
  request: ProviderRequest,
  providerId: string,
  info: ModelInfo,
): MessageCreateParamsStreaming {
  const system: TextBlockParam[] = request.system ? [{ type: "text", text: request.system, cache_control: CACHE }] : [];
  const tools: Tool[] = request.tools.map((t, i) => ({
    name: t.name,
    description: t.description,
    input_schema: { ...t.inputSchema, type: "object" },
    ...(i === request.tools.length - 1 ? { cache_control: CACHE } : {}),
  }));
  return {
    model: request.model,
    max_tokens: info.maxOutputTokens,
    stream: true,
    ...(system.length ? { system } : {}),
    ...(tools.length ? { tools } : {}),
    messages: withCacheBreakpoint(lowerMessages(request.messages, providerId)),
    ...thinkingParams(request.thoughtLevel, info),
  };
}

/** The conversation as Anthropic messages; consecutive messages of one role are merged. */
export function lowerMessages(messages: ModelMessage[], providerId: string): MessageParam[] {
  const out: MessageParam[] = [];
  const push = (role: "user" | "assistant", content: ContentBlockParam[]) => {
    if (content.length === 0) return;
    const last = out[out.length - 1];
    if (last && last.role === role && Array.isArray(last.content)) last.content.push(...content);
    else out.push({ role, content });
  };
  for (const m of messages) {
    if (m.role === "user") push("user", m.content.map(userBlock));
    else if (m.role === "assistant") push("assistant", assistantBlocks(m, providerId));
    else {
      push(
        "user",
        m.results.map((r) => ({
          type: "tool_result",
          tool_use_id: r.providerCallId,
          ...resultContent(r),
          ...(r.isError ? { is_error: true } : {}),
        })),
      );
    }
  }
  return out;
}

/** A result's content: its text, and its images and PDFs as blocks of their own inside the result. */
function resultContent(result: ModelToolResult): Pick<ToolResultBlockParam, "content"> {
  if (!result.attachments?.length) return result.text ? { content: result.text } : {};
  const blocks: Exclude<ToolResultBlockParam["content"], string | undefined> = result.text
    ? [{ type: "text", text: result.text }]
    : [];
  for (const a of result.attachments) {
    if (a.type === "image") blocks.push(imageBlock(a.data, a.mimeType));
    else
      blocks.push({
        type: "document",
        title: a.name,
        source: { type: "base64", media_type: a.mimeType, data: a.data },
      });
  }
  return { content: blocks };
}

function imageBlock(data: string, mimeType: string): ImageBlockParam | TextBlockParam {
  const mediaType = IMAGE_TYPES.find((t) => t === mimeType);
  if (!mediaType)
    return {
      type: "text",
      text: `[An image of type ${mimeType} was attached; this model takes JPEG, PNG, GIF or WebP]`,
    };
  return { type: "image", source: { type: "base64", media_type: mediaType, data } };
}

function userBlock(part: UserPart): ContentBlockParam {
  if (part.type === "text") return { type: "text", text: part.text };
  return imageBlock(part.data, part.mimeType);
}

function assistantBlocks(message: AssistantMessage, providerId: string): ContentBlockParam[] {
  // Signatures and redacted thinking belong to the provider that produced them.
  const continuity = message.model.provider === providerId ? readContinuity(message.continuity) : undefined;
  const parts = arrange<PrivateItem>(message, continuity?.blocks);
  const blocks: ContentBlockParam[] = parts.map((part) => {
    switch (part.kind) {
      case "text":
        return { type: "text", text: part.text };
      case "call":
        return {
          type: "tool_use",
          id: part.call.providerCallId,
          name: part.call.name,
          input: objectInput(part.call.input),
        };
      case "private":
        return part.item.type === "thinking"
          ? { type: "thinking", thinking: part.item.thinking, signature: part.item.signature }
          : { type: "redacted_thinking", data: part.item.data };
    }
  });
  // Thinking alone (a reply cut off before any answer) is not a message the API accepts.
  return blocks.some((b) => b.type === "text" || b.type === "tool_use") ? blocks : [];
}

const jsonObject = z.record(z.string(), z.unknown());

/** Tool input must be an object; input that was not valid JSON was already reported to the model. */
const objectInput = (input: unknown): Record<string, unknown> => {
  const parsed = jsonObject.safeParse(input);
  return parsed.success ? parsed.data : {};
};

/** Marks the last cacheable block of the conversation. */
function withCacheBreakpoint(messages: MessageParam[]): MessageParam[] {
  const last = messages[messages.length - 1];
  if (!last || !Array.isArray(last.content)) return messages;
  const block = last.content[last.content.length - 1];
  if (
    block &&
    (block.type === "text" || block.type === "tool_result" || block.type === "image" || block.type === "tool_use")
  ) {
    block.cache_control = CACHE;
  }
  return messages;
}
