/**
 * What verbatim knows about models without being told: context window, output limit, how the
 * model is asked to think, and the list price (US dollars per million tokens, from the
 * providers' published pricing). A config file overrides any of it per model; a model not in
 * this table gets its kind's defaults and no price (so no cost is shown rather than a wrong one).
 * Prices are the standard list prices as published in 2026 (OpenAI's apply below 270K tokens
 * of context); a config file's `price` replaces them.
 */
import type { ModelSettings, Price, ProviderKind } from "../config/settings-schema.ts";
import { defined } from "../../shared/defined.ts";

export type ThinkingStyle = "adaptive" | "budget" | "effort" | "none";

export type ModelInfo = {
  contextWindow: number;
  /** The output limit sent to Anthropic (which requires one). */
  maxOutputTokens: number;
  /** An output limit the user configured; the OpenAI adapters send only this one. */
  configuredMaxOutput?: number;
  thinking: ThinkingStyle;
  price?: Price;
  /** Responses: the effort that means "thinking off" for this model (default "none"). */
  effortOff?: "none" | "minimal" | "low";
};

type Known = { kind: ProviderKind; id: string; name: string; info: Partial<ModelInfo> };

const claude = (input: number, output: number): Price => ({
  input,
  output,
  cacheRead: input * 0.1,
  cacheWrite: input * 1.25,
});

/** Listed in this order when a provider is configured without its own model list. */
export const knownModels: Known[] = [
  {
    kind: "anthropic",
    id: "claude-sonnet-4-6",
    name: "Claude Sonnet 4.6",
    info: { contextWindow: 1_000_000, maxOutputTokens: 64_000, thinking: "adaptive", price: claude(3, 15) },
  },
  {
    kind: "anthropic",
    id: "claude-opus-4-7",
    name: "Claude Opus 4.7",
    info: { contextWindow: 1_000_000, maxOutputTokens: 128_000, thinking: "adaptive", price: claude(5, 25) },
  },
  {
    kind: "anthropic",
    id: "claude-haiku-4-5",
    name: "Claude Haiku 4.5",
    info: { contextWindow: 200_000, maxOutputTokens: 64_000, thinking: "budget", price: claude(1, 5) },
  },
  {
    kind: "openai",
    id: "gpt-5.5",
    name: "GPT-5.5",
    info: { contextWindow: 1_000_000, thinking: "effort", price: { input: 5, output: 30, cacheRead: 0.5 } },
  },
  {
    kind: "openai",
    id: "gpt-5.4",
    name: "GPT-5.4",
    info: { contextWindow: 1_000_000, thinking: "effort", price: { input: 2.5, output: 15, cacheRead: 0.25 } },
  },
  {
    kind: "openai",
    id: "gpt-5.4-mini",
    name: "GPT-5.4 mini",
    info: { contextWindow: 1_000_000, thinking: "effort", price: { input: 0.75, output: 4.5, cacheRead: 0.075 } },
  },
];

const defaults: Record<ProviderKind, ModelInfo> = {
  // Current Claude models take adaptive thinking; older ones (Haiku 4.5 and before) take budgets.
  anthropic: { contextWindow: 200_000, maxOutputTokens: 32_000, thinking: "adaptive" },
  openai: { contextWindow: 400_000, maxOutputTokens: 128_000, thinking: "effort" },
  // Local servers: a conservative window; set contextWindow per model in the config file.
  "openai-chat": { contextWindow: 32_768, maxOutputTokens: 8_192, thinking: "none" },
};

const DATE_SUFFIX = /^-(\d{8}|\d{4}-\d{2}-\d{2})$/;

/** The known entry for a model id, or for its dated snapshot (`claude-haiku-4-5-20251001`). */
export function knownModel(kind: ProviderKind, id: string): Known | undefined {
  return knownModels.find(
    (k) => k.kind === kind && (id === k.id || (id.startsWith(k.id) && DATE_SUFFIX.test(id.slice(k.id.length)))),
  );
}

/** Everything about a model: the config file's settings over the known table over the defaults. */
export function modelInfo(kind: ProviderKind, id: string, configured: ModelSettings | undefined): ModelInfo {
  const known = knownModel(kind, id)?.info ?? {};
  const base = { ...defaults[kind], ...known };
  return {
    ...base,
    ...defined({
      contextWindow: configured?.contextWindow,
      maxOutputTokens: configured?.maxOutputTokens,
      configuredMaxOutput: configured?.maxOutputTokens,
      thinking: configured?.thinking,
      price: configured?.price,
    }),
  };
}
