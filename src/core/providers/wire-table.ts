/**
 * The provider wires verbatim speaks, one row each: what `doctor`, `setup`, `models`, the config
 * reading and the failure advice know about a kind. A record over the kinds of the settings
 * schema, so a new kind does not compile until its row is written (no code path falls back to
 * treating an unknown wire as OpenAI).
 */
import type { ProviderKind } from "../config/settings-schema.ts";

export type Wire = {
  /** The API's name as users know it (in model names and advice). */
  name: string;
  /** Where requests go when no base URL is configured (what the adapters' SDK clients use). */
  defaultUrl: string;
  /** The environment variables that configure the provider named after the kind. */
  keyVar: string;
  urlVar: string;
  /**
   * Whether a base URL carries the API's version path itself: OpenAI-style servers serve under
   * /v1 (Ollama, vLLM, LM Studio), while the Anthropic SDK adds /v1 to its base URL.
   */
  versionInBaseUrl: boolean;
  /** The official SDK that streams the wire and lists its models. */
  sdk: "anthropic" | "openai";
};

export const WIRES: Record<ProviderKind, Wire> = {
  anthropic: {
    name: "Anthropic",
    defaultUrl: "https://api.anthropic.com",
    keyVar: "ANTHROPIC_API_KEY",
    urlVar: "ANTHROPIC_BASE_URL",
    versionInBaseUrl: false,
    sdk: "anthropic",
  },
  openai: {
    name: "OpenAI",
    defaultUrl: "https://api.openai.com/v1",
    keyVar: "OPENAI_API_KEY",
    urlVar: "OPENAI_BASE_URL",
    versionInBaseUrl: true,
    sdk: "openai",
  },
  "openai-chat": {
    name: "OpenAI-compatible",
    defaultUrl: "https://api.openai.com/v1",
    keyVar: "OPENAI_API_KEY",
    urlVar: "OPENAI_BASE_URL",
    versionInBaseUrl: true,
    sdk: "openai",
  },
};

/** The URL a models request goes to: the base URL (or the default), with the version path the SDK adds. */
export function modelsUrl(kind: ProviderKind, baseUrl: string | undefined): string {
  const wire = WIRES[kind];
  const base = (baseUrl ?? wire.defaultUrl).replace(/\/+$/, "");
  return wire.versionInBaseUrl ? `${base}/models` : `${base}/v1/models`;
}
