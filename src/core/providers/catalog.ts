/**
 * Which providers and models this process can use, from configuration. The scripted provider is
 * listed only when chosen explicitly; there is never a silent fallback to it.
 */
import type { ModelRef } from "../../journal/facts/index.ts";
import type { ModelChoice } from "../config/config-options.ts";
import { parseModelRef } from "../config/model-ref.ts";
import { scenarios } from "./scripted/scenarios.ts";
import { scriptedProvider } from "./scripted/scripted-provider.ts";
import type { Provider } from "./types.ts";

export interface ProviderCatalog {
  /** The models a session may choose. */
  models(): ModelChoice[];
  /** The model new sessions use, or undefined when no provider is configured. */
  defaultModel(): ModelRef | undefined;
  provider(ref: ModelRef): Provider | undefined;
  /** What to set to configure a provider, for the authentication-required error. */
  readonly setupHint: string;
}

export const SETUP_HINT =
  "No model provider is configured. Set VERBATIM_MODEL=<provider>/<model> " +
  "(for example scripted/demo for the offline scripted model), or run `verbatim demo`.";

export function catalogFromEnv(env: Record<string, string | undefined> = process.env): ProviderCatalog {
  const chosen = env.VERBATIM_MODEL ? parseModelRef(env.VERBATIM_MODEL) : undefined;
  const scripted = chosen?.provider === "scripted";
  return {
    setupHint: SETUP_HINT,
    models: () =>
      scripted
        ? Object.entries(scenarios).map(([name, s]) => ({ ref: { provider: "scripted", model: name }, name: `Scripted: ${name}`, description: s.description }))
        : [],
    defaultModel: () => (scripted ? chosen : undefined),
    provider: (ref) => (ref.provider === "scripted" ? scriptedProvider : undefined),
  };
}
