import { z } from "zod";
import { money, tokenCounts } from "./display-shapes.ts";

/**
 * Compaction: older turns summarised for the model by a model call, so a long session fits its
 * context window. What the user is shown of the conversation does not change; the summary is
 * shown as it streams (`messageId` is the message that shows it to clients without compaction
 * updates).
 */
export const compactionStarted = z.object({
  kind: z.literal("compaction_started"),
  compactionId: z.string(),
  turnId: z.string(),
  messageId: z.string(),
  trigger: z.enum(["auto", "manual"]),
});

export const compactionChunk = z.object({
  kind: z.literal("compaction_chunk"),
  compactionId: z.string(),
  text: z.string(),
});

/**
 * The compaction ended. When completed, the model's context restarts from `summary`: every turn
 * before `turnId` is replaced by it (the turn itself, if it is a model turn, is kept).
 */
export const compactionEnded = z.object({
  kind: z.literal("compaction_ended"),
  compactionId: z.string(),
  turnId: z.string(),
  outcome: z.enum(["completed", "failed", "cancelled"]),
  summary: z.string().optional(),
  error: z.string().optional(),
  /** The compaction call's tokens, as its provider reported them, and their cost where the price is known. */
  usage: tokenCounts.optional(),
  cost: money.optional(),
  /**
   * The context the compaction's `usage_update` showed. Completed: `used` is the summary's tokens
   * (the compaction call's output tokens as its provider reported them; about four characters a
   * token when it reported none) and `size` the model's window. Failed or cancelled, only when its
   * call had a cost: the context as the last usage update showed it, unchanged. `sessionCost` is
   * the session's cost with the compaction's included. Absent in records written before they were
   * kept (and then in failed or cancelled ones), which showed no usage.
   */
  context: z.object({ used: z.number(), size: z.number() }).optional(),
  sessionCost: money.optional(),
});

export const compactionFacts = [compactionStarted, compactionChunk, compactionEnded] as const;
