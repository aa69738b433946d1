import { z } from "zod";
import { lazySchema } from "../../shared/lazy-schema.ts";
import { money, tokenCounts } from "./display-shapes.ts";

/**
 * Compaction: older turns summarised for the model by a model call, so a long session fits its
 * context window. What the user is shown of the conversation does not change; the summary is
 * shown as it streams (`messageId` is the message that shows it to clients without compaction
 * updates).
 */
export const compactionStarted = lazySchema(() =>
  z.object({
    kind: z.literal("compaction_started"),
    compactionId: z.string(),
    turnId: z.string(),
    messageId: z.string(),
    trigger: z.enum(["auto", "manual"]),
  }),
);

export const compactionChunk = lazySchema(() =>
  z.object({
    kind: z.literal("compaction_chunk"),
    compactionId: z.string(),
    text: z.string(),
  }),
);

/**
 * The compaction ended. When completed, the model's context restarts from `summary`: every turn
 * before `turnId` is replaced by it (the turn itself, if it is a model turn, is kept).
 */
export const compactionEnded = lazySchema(() =>
  z.object({
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
    /**
     * The compaction ran between two steps of its turn (before a model request, not before the
     * turn's first): when completed, the model's context restarts from the summary alone, the turn's
     * prompt and steps included, with a note that the turn goes on. Absent: before the turn's first step.
     */
    midTurn: z.literal(true).optional(),
  }),
);

/**
 * Old tool output pruned before a model request, to keep the request under the compaction
 * threshold: each listed call's result is given to the model from here on as a stub saying it was
 * pruned (replay/conversation.ts), the newest results kept whole. What the user is shown of the
 * calls does not change; the notice (`messageId`) says it happened. `context` is the next
 * request's size as estimated after the pruning, shown as a usage update.
 */
export const toolResultsPruned = lazySchema(() =>
  z.object({
    kind: z.literal("tool_results_pruned"),
    turnId: z.string(),
    messageId: z.string(),
    toolCallIds: z.array(z.string()).min(1),
    /** About how many tokens the pruning freed (four characters a token). */
    freed: z.number(),
    context: z.object({ used: z.number(), size: z.number() }),
  }),
);

export const compactionFacts = [compactionStarted, compactionChunk, compactionEnded, toolResultsPruned] as const;
