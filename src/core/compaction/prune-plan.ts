/**
 * Which old tool results to prune so a request fits: the oldest first, never the newest few
 * (the model is most likely still working from them), never one so small that its stub saves
 * nothing worth a changed request.
 */
import { prunedStub } from "../../replay/conversation.ts";
import { tokensOfChars } from "./request-size.ts";

/** The newest results always kept whole. */
export const KEEP_NEWEST = 3;
/** A result shorter than this is left alone. */
const MIN_CHARS = 600;

export type PrunePlan = { toolCallIds: string[]; freed: number };

/**
 * The oldest results whose pruning frees at least `toFree` tokens, or every prunable one when
 * they free less.
 */
export function planPrune(results: readonly { toolCallId: string; chars: number }[], toFree: number): PrunePlan {
  const plan: PrunePlan = { toolCallIds: [], freed: 0 };
  const candidates = results.slice(0, Math.max(0, results.length - KEEP_NEWEST));
  for (const r of candidates) {
    if (plan.freed >= toFree) break;
    if (r.chars < MIN_CHARS) continue;
    plan.toolCallIds.push(r.toolCallId);
    plan.freed += tokensOfChars(r.chars - prunedStub(r.chars).length);
  }
  return plan;
}
