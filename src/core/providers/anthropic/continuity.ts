/**
 * What an Anthropic step keeps privately to continue: its content blocks in order, with the
 * thinking text and signature of each thinking block and the encrypted data of each redacted
 * one (the API wants them back unchanged). Journaled in `step_ended.continuity`; never shown.
 */
import { z } from "zod";
import { callRef, textRef } from "../assistant-layout.ts";

const thinkingItem = z.object({ type: z.literal("thinking"), thinking: z.string(), signature: z.string() });
const redactedItem = z.object({ type: z.literal("redacted_thinking"), data: z.string() });
export type PrivateItem = z.infer<typeof thinkingItem> | z.infer<typeof redactedItem>;

const anthropicContinuity = z.object({
  format: z.literal("anthropic-messages/1"),
  blocks: z.array(z.discriminatedUnion("type", [textRef, callRef, thinkingItem, redactedItem])),
});
export type AnthropicContinuity = z.infer<typeof anthropicContinuity>;

/** The recorded continuity, or undefined when it is not this adapter's (another provider's). */
export function readContinuity(value: unknown): AnthropicContinuity | undefined {
  const parsed = anthropicContinuity.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
