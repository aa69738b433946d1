/**
 * Rebuilding a recorded assistant step in the order the provider produced it. A step's
 * continuity (private, journaled with `step_ended`) lists its output in order: answer text by
 * length (the text itself is the step's recorded answer), tool calls by provider id, and
 * provider-private items (signatures, encrypted reasoning) whole. Lowering walks that list, so
 * the provider gets back exactly the structure it produced.
 */
import { z } from "zod";
import type { ModelCall, ModelMessage } from "../../replay/model-messages.ts";

export type AssistantMessage = Extract<ModelMessage, { role: "assistant" }>;

/** Answer text by its length; `id` is the provider's own id for the item, where it has one. */
export const textRef = z.object({ type: z.literal("text"), chars: z.int().nonnegative(), id: z.string().optional() });
/** A tool call by its provider call id; `itemId` is the provider's item id, where distinct. */
export const callRef = z.object({ type: z.literal("call"), id: z.string(), itemId: z.string().optional() });
export type TextRef = z.infer<typeof textRef>;
export type CallRef = z.infer<typeof callRef>;

/** Provider-private items use any `type` but "text" and "call". */
export type LayoutItem<P> = TextRef | CallRef | P;

export type Part<P> = { kind: "text"; text: string } | { kind: "call"; call: ModelCall } | { kind: "private"; item: P };

/**
 * The step's parts in order. Text and calls the layout does not cover (no continuity: a failed
 * step, another provider's step) follow it: the rest of the text, then the remaining calls.
 * A call the layout names but the step did not accept (a reply cut off by `max_tokens`) is left out.
 */
export function arrange<P extends { type: string }>(
  message: AssistantMessage,
  layout: readonly LayoutItem<P>[] | undefined,
): Part<P>[] {
  const parts: Part<P>[] = [];
  const calls = new Map(message.calls.map((c) => [c.providerCallId, c]));
  let offset = 0;
  for (const item of layout ?? []) {
    if (isTextRef(item)) {
      const text = message.text.slice(offset, offset + item.chars);
      offset += item.chars;
      if (text) parts.push({ kind: "text", text });
    } else if (isCallRef(item)) {
      const call = calls.get(item.id);
      if (!call) continue;
      calls.delete(item.id);
      parts.push({ kind: "call", call });
    } else {
      parts.push({ kind: "private", item });
    }
  }
  const rest = message.text.slice(offset);
  if (rest) parts.push({ kind: "text", text: rest });
  for (const call of calls.values()) parts.push({ kind: "call", call });
  return parts;
}

export const isTextRef = <P extends { type: string }>(item: LayoutItem<P>): item is TextRef => item.type === "text";
const isCallRef = <P extends { type: string }>(item: LayoutItem<P>): item is CallRef => item.type === "call";
