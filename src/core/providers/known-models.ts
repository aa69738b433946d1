/**
 * What verbatim knows about models without being told: context window, output limit, how the
 * model is asked to think, and the list price (US dollars per million tokens, from the
 * providers' published pricing). A config file overrides any of it per model; a model not in
 * this table gets its kind's defaults and no price (so no cost is shown rather than a wrong one).
 */
import type { ModelSettings, Price, ProviderKind } from "../config/settings-schema.ts";

export type ThinkingStyle = "adaptive" | "budget" | "effort" | "none";

export type ModelInfo = {
  contextWindow: number;
  maxOutputTokens: number;
  thinking: ThinkingStyle;
  price?: Price;
  /** Responses: the effort that means "thinking off" for this model. */
  effortOff?: "none" | "minimal" | "low";
};

type Known = { kind: ProviderKind; id: string; name: string; info: Partial<ModelInfo> };

const claude = (input: number, output: number): Price => ({ input, output, cacheRead: input * 0.1, cacheWrite: input * 1.25 });

/** Listed in this order when a provider is configured without its own model list. */
export const knownModels: Known[] = [
  { kind: "anthropic", id: "claude-sonnet-4-5", name: "Claude Sonnet 4.5", info: { contextWindow: 200_000, maxOutputTokens: 64_000, thinking: "budget", price: claude(3, 15) } },
  { kind: "anthropic", id: "claude-opus-4-5", name: "Claude Opus 4.5", info: { contextWindow: 200_000, maxOutputTokens: 64_000, thinking: "budget", price: claude(5, 25) } },
  { kind: "anthropic", id: "claude-haiku-4-5", name: "Claude Haiku 4.5", info: { contextWindow: 200_000, maxOutputTokens: 64_000, thinking: "budget", price: claude(1, 5) } },
  { kind: "openai", id: "gpt-5", name: "GPT-5", info: { contextWindow: 400_000, maxOutputTokens: 128_000, thinking: "effort", effortOff: "minimal", price: { input: 1.25, output: 10, cacheRead: 0.125 } } },
  { kind: "openai", id: "gpt-5-mini", name: "GPT-5 mini", info: { contextWindow: 400_000, maxOutputTokens: 128_000, thinking: "effort", effortOff: "minimal", price: { input: 0.25, output: 2, cacheRead: 0.025 } } },
  { kind: "openai", id: "gpt-4.1", name: "GPT-4.1", info: { contextWindow: 1_047_576, maxOutputTokens: 32_768, thinking: "none", price: { input: 2, output: 8, cacheRead: 0.5 } } },
];

const defaults: Record<ProviderKind, ModelInfo> = {
  // Newer Claude models take adaptive thinking; older ones are listed above with "budget".
  anthropic: { contextWindow: 200_000, maxOutputTokens: 32_000, thinking: "adaptive" },
  openai: { contextWindow: 400_000, maxOutputTokens: 128_000, thinking: "effort", effortOff: "none" },
  // Local servers: a conservative window; set contextWindow per model in the config file.
  "openai-chat": { contextWindow: 32_768, maxOutputTokens: 8_192, thinking: "none" },
};

/** The known entry for a model id: exact, else the longest known id it starts with (dated ids). */
export function knownModel(kind: ProviderKind, id: string): Known | undefined {
  const candidates = knownModels.filter((k) => k.kind === kind && (id === k.id || id.startsWith(`${k.id}-`)));
  return candidates.sort((a, b) => b.id.length - a.id.length)[0];
}

/** Everything about a model: the config file's settings over the known table over the defaults. */
export function modelInfo(kind: ProviderKind, id: string, configured: ModelSettings | undefined): ModelInfo {
  const known = knownModel(kind, id)?.info ?? {};
  const base = { ...defaults[kind], ...known };
  return {
    ...base,
    ...(configured?.contextWindow !== undefined ? { contextWindow: configured.contextWindow } : {}),
    ...(configured?.maxOutputTokens !== undefined ? { maxOutputTokens: configured.maxOutputTokens } : {}),
    ...(configured?.thinking !== undefined ? { thinking: configured.thinking } : {}),
    ...(configured?.price !== undefined ? { price: configured.price } : {}),
  };
}
