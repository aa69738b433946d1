/**
 * A session's cost so far: what `usage_update.cost` shows (ACP defines it as the session's
 * cumulative cost). Each priced model call (a step, a compaction) adds its own recorded cost.
 */
import type { Money } from "../journal/facts/index.ts";

/**
 * `total` with `cost` added, in millionths (step costs are rounded to a millionth of a dollar, and
 * a sum of them should print as one). A cost in another currency than the total's cannot be
 * added: the total starts again from it. Never throws.
 */
export function addCost(total: Money | undefined, cost: Money | undefined): Money | undefined {
  if (!cost) return total;
  if (!total || total.currency !== cost.currency) return { amount: cost.amount, currency: cost.currency };
  return { amount: Math.round((total.amount + cost.amount) * 1_000_000) / 1_000_000, currency: total.currency };
}
