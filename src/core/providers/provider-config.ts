/**
 * Which providers are configured, from the config files and the environment (the environment
 * wins). `VERBATIM_MODEL=<provider>/<model>` chooses the default model; ANTHROPIC_API_KEY /
 * ANTHROPIC_BASE_URL configure the provider named `anthropic`, OPENAI_API_KEY / OPENAI_BASE_URL
 * the ones named `openai` and `openai-chat`. Providers with other names come from config files.
 * Secrets stay here and in the SDK clients: nothing in this module is journaled.
 */
import type { ModelRef } from "../../journal/facts/index.ts";
import { formatModelRef, parseModelRef } from "../config/model-ref.ts";
import {
  isProviderKind,
  kindOf,
  providerKinds,
  type ModelSettings,
  type ProviderKind,
  type ProviderSettings,
  type Settings,
} from "../config/settings-schema.ts";
import { knownModel, knownModels, modelInfo, type ModelInfo } from "./known-models.ts";
import { WIRES } from "./wire-table.ts";

type Env = Record<string, string | undefined>;

/**
 * The key an SDK client is given when none is configured: a server behind a base URL (a local
 * one) may need none, but the official SDKs will not start without one.
 */
export const PLACEHOLDER_KEY = "verbatim-no-key";

export type ResolvedProvider = {
  id: string;
  kind: ProviderKind;
  baseUrl?: string;
  apiKey?: string;
  headers: Record<string, string>;
  /** The models offered, in order. */
  models: { id: string; name: string }[];
  /** Everything about a model, listed or not. */
  model(id: string): ModelInfo;
  /** What to set before this provider can be used; undefined when it is ready. */
  missing?: string;
};

export type ProviderSetup = {
  providers: ResolvedProvider[];
  /** The scripted model was chosen explicitly. */
  scripted: boolean;
  defaultModel?: ModelRef;
  /** Why no model can be used, saying exactly what to set; present when `defaultModel` is not. */
  problem?: string;
};

/** What an SDK client is built from: where it sends, with which key and headers. */
export type ClientConfig = Pick<ResolvedProvider, "apiKey" | "baseUrl" | "headers">;

export const GENERIC_HINT =
  "No model provider is configured. Run `verbatim setup` to choose one and save its key, or " +
  "set VERBATIM_MODEL=<provider>/<model> and the provider's key in verbatim's environment: " +
  "ANTHROPIC_API_KEY for anthropic/<model> (e.g. anthropic/claude-sonnet-4-6), OPENAI_API_KEY for openai/<model> (e.g. openai/gpt-5.4), " +
  "or OPENAI_BASE_URL for an OpenAI-compatible server such as Ollama (VERBATIM_MODEL=openai-chat/qwen3 OPENAI_BASE_URL=http://127.0.0.1:11434/v1). " +
  "Providers can also be listed in $XDG_CONFIG_HOME/verbatim/config.json (see the README). VERBATIM_MODEL=scripted/demo runs the offline scripted model.";

const nonEmpty = (v: string | undefined) => (v && v.trim() !== "" ? v : undefined);

export function resolveProviders(settings: Settings, env: Env, userFile: string): ProviderSetup {
  const envModel = nonEmpty(env.VERBATIM_MODEL);
  const chosenText = envModel ?? settings.model;
  const chosenFrom = envModel ? "VERBATIM_MODEL" : `"model" in the config file`;
  const chosen = chosenText ? parseModelRef(chosenText) : undefined;
  if (chosenText && !chosen) {
    return {
      providers: [],
      scripted: false,
      problem: `${chosenFrom} must be <provider>/<model> (e.g. anthropic/claude-sonnet-4-6), got "${chosenText}".`,
    };
  }

  const configured = settings.providers ?? {};
  const names = new Set(Object.keys(configured));
  if (nonEmpty(env.ANTHROPIC_API_KEY) || nonEmpty(env.ANTHROPIC_BASE_URL)) names.add("anthropic");
  if (nonEmpty(env.OPENAI_API_KEY)) names.add("openai");
  if (chosen && isProviderKind(chosen.provider)) names.add(chosen.provider);

  const providers: ResolvedProvider[] = [];
  for (const id of names) {
    const p = configured[id] ?? {};
    const kind = kindOf(id, p);
    if (!kind) continue; // the schema already rejects a configured provider without a kind
    providers.push(resolveOne(id, kind, p, env, userFile, chosen?.provider === id ? chosen.model : undefined));
  }

  if (chosen?.provider === "scripted") return { providers, scripted: true, defaultModel: chosen };
  if (chosen) {
    const provider = providers.find((p) => p.id === chosen.provider);
    if (!provider) {
      const known = [...providerKinds, "scripted", ...Object.keys(configured)];
      return {
        providers,
        scripted: false,
        problem: `${chosenFrom} is ${formatModelRef(chosen)}, but no provider is named "${chosen.provider}". Known providers: ${[...new Set(known)].join(", ")}.`,
      };
    }
    if (provider.missing)
      return {
        providers,
        scripted: false,
        problem: `${chosenFrom} is ${formatModelRef(chosen)}, but ${provider.missing}`,
      };
    return { providers, scripted: false, defaultModel: chosen };
  }
  const ready = providers.find((p) => !p.missing && p.models.length > 0);
  const first = ready?.models[0];
  if (ready && first) return { providers, scripted: false, defaultModel: { provider: ready.id, model: first.id } };
  const notReady = providers.filter((p) => p.missing).map((p) => `Provider "${p.id}": ${p.missing}`);
  return { providers, scripted: false, problem: [GENERIC_HINT, ...notReady].join(" ") };
}

function resolveOne(
  id: string,
  kind: ProviderKind,
  p: ProviderSettings,
  env: Env,
  userFile: string,
  chosenModel: string | undefined,
): ResolvedProvider {
  const vars = id === kind ? WIRES[kind] : undefined;
  const apiKey =
    (vars && nonEmpty(env[vars.keyVar])) ?? p.apiKey ?? (p.apiKeyEnv ? nonEmpty(env[p.apiKeyEnv]) : undefined);
  const baseUrl = (vars && nonEmpty(env[vars.urlVar])) ?? p.baseUrl;
  const settingsFor = (model: string): ModelSettings | undefined => p.models?.[model];
  // The configured models, else the known ones; the chosen model is always among them.
  const models = p.models
    ? Object.entries(p.models).map(([model, m]) => ({
        id: model,
        name: m.name ?? knownModel(kind, model)?.name ?? model,
      }))
    : knownModels.filter((k) => k.kind === kind).map((k) => ({ id: k.id, name: k.name }));
  if (chosenModel && !models.some((m) => m.id === chosenModel)) {
    models.unshift({ id: chosenModel, name: knownModel(kind, chosenModel)?.name ?? chosenModel });
  }
  const missing = missingSetting(id, kind, p, apiKey, baseUrl, userFile);
  return {
    id,
    kind,
    ...(baseUrl ? { baseUrl } : {}),
    ...(apiKey ? { apiKey } : {}),
    headers: p.headers ?? {},
    models: models.map((m) => ({ id: m.id, name: `${m.name} (${id === kind ? WIRES[kind].name : id})` })),
    model: (model) => modelInfo(kind, model, settingsFor(model)),
    ...(missing ? { missing } : {}),
  };
}

/** What to set before a provider can be used, or undefined when it can be. */
function missingSetting(
  id: string,
  kind: ProviderKind,
  p: ProviderSettings,
  apiKey: string | undefined,
  baseUrl: string | undefined,
  userFile: string,
): string | undefined {
  if (apiKey || baseUrl) return undefined;
  const inFile = `providers.${id}`;
  if (p.apiKeyEnv) return `${p.apiKeyEnv} (named by ${inFile}.apiKeyEnv) is not set.`;
  if (kind === "openai-chat") {
    const how = id === kind ? "Set OPENAI_BASE_URL" : `Set ${inFile}.baseUrl in ${userFile}`;
    return `no server URL is set for it. ${how} to the server's OpenAI-compatible URL (for Ollama: http://127.0.0.1:11434/v1).`;
  }
  const how = id === kind ? `Set ${WIRES[kind].keyVar}` : `Set ${inFile}.apiKeyEnv (or apiKey) in ${userFile}`;
  return `no ${WIRES[kind].name} API key is set. ${how}.`;
}
