/** The cost of one model step, where the model's price is known. */
import type { Money, TokenCounts } from "../../journal/facts/index.ts";
import type { Price } from "../config/settings-schema.ts";

/**
 * Input, output and cache tokens at the model's price per million. `inputTokens` are the
 * uncached input tokens (adapters report cache reads and writes separately). Cache tokens
 * without a cache price are charged as input. Rounded to a millionth of a dollar.
 */
export function stepCost(price: Price | undefined, usage: TokenCounts): Money | undefined {
  if (!price) return undefined;
  const microDollars =
    usage.inputTokens * price.input +
    (usage.cacheReadTokens ?? 0) * (price.cacheRead ?? price.input) +
    (usage.cacheWriteTokens ?? 0) * (price.cacheWrite ?? price.input) +
    usage.outputTokens * price.output;
  return { amount: Math.round(microDollars) / 1_000_000, currency: "USD" };
}
