/**
 * What a Chat Completions step keeps privately to continue: the reasoning the server streamed
 * in a non-standard field, and which field it used, so it can be given back the same way
 * (DeepSeek, vLLM, Ollama and OpenRouter want it back within a tool-use loop).
 */
import { z } from "zod";

const reasoningFields = ["reasoning_content", "reasoning"] as const;
export type ReasoningField = (typeof reasoningFields)[number];

const chatContinuity = z.object({
  format: z.literal("openai-chat/1"),
  reasoning: z.object({ field: z.enum(reasoningFields), text: z.string() }).optional(),
});
export type ChatContinuity = z.infer<typeof chatContinuity>;

export function readContinuity(value: unknown): ChatContinuity | undefined {
  const parsed = chatContinuity.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** The non-standard fields of a streamed delta, parsed rather than assumed. */
export const reasoningDelta = z.object({
  reasoning_content: z.string().nullish(),
  reasoning: z.string().nullish(),
});
