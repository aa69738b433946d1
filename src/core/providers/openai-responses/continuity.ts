/**
 * What an OpenAI Responses step keeps privately to continue: its output items in order, with
 * each reasoning item's summary and encrypted content, and the provider's item ids. Requests
 * are stateless (`store: false`), so the encrypted reasoning is how the model gets its own
 * reasoning back. Journaled in `step_ended.continuity`; never shown.
 */
import { z } from "zod";
import { callRef, textRef } from "../assistant-layout.ts";

const reasoningItem = z.object({
  type: z.literal("reasoning"),
  id: z.string(),
  summary: z.array(z.string()),
  encrypted: z.string().optional(),
});
export type ReasoningItem = z.infer<typeof reasoningItem>;

const responsesContinuity = z.object({
  format: z.literal("openai-responses/1"),
  items: z.array(z.discriminatedUnion("type", [textRef, callRef, reasoningItem])),
});
export type ResponsesContinuity = z.infer<typeof responsesContinuity>;

export function readContinuity(value: unknown): ResponsesContinuity | undefined {
  const parsed = responsesContinuity.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
