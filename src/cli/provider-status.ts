/**
 * What the config files and the environment configure, for `verbatim models` and `verbatim
 * doctor`: the same reading the engine's catalog does (src/core/providers/catalog.ts), with the
 * providers that cannot be used kept, and why.
 */
import { loadSettings, settingsFiles, type SettingsFiles } from "../core/config/settings.ts";
import { isTrusted } from "../core/hooks/trust.ts";
import { resolveProviders, type ProviderSetup } from "../core/providers/provider-config.ts";
import { scenarios } from "../core/providers/scripted/scenarios.ts";

type Env = Record<string, string | undefined>;

export type ModelRow = {
  model: string;
  name: string;
  provider: string;
  available: boolean;
  reason?: string;
  default?: true;
};

export type ProviderStatus = {
  files: SettingsFiles;
  trusted: boolean;
  /** The config files' problem (they are then not used at all). */
  configError?: string;
  setup: ProviderSetup;
  /** Every model of every provider, usable or not (with why not); the scripted ones when chosen. */
  models: ModelRow[];
};

export function providerStatus(env: Env, cwd: string, options: { trust?: boolean } = {}): ProviderStatus {
  const files = settingsFiles(env, cwd);
  const trusted = (options.trust ?? false) || isTrusted(env, cwd);
  const loaded = loadSettings(files, { trustProject: trusted });
  const setup: ProviderSetup = loaded.ok
    ? resolveProviders(loaded.settings, env, files.user)
    : { providers: [], scripted: false };
  const chosen = setup.defaultModel ? `${setup.defaultModel.provider}/${setup.defaultModel.model}` : undefined;
  const row = (provider: string, id: string, name: string, reason?: string): ModelRow => {
    const model = `${provider}/${id}`;
    return {
      model,
      name,
      provider,
      available: reason === undefined,
      ...(reason ? { reason } : {}),
      ...(model === chosen ? { default: true as const } : {}),
    };
  };
  const models = [
    ...(setup.scripted
      ? Object.entries(scenarios).map(([name, s]) => row("scripted", name, `Scripted: ${name} (${s.description})`))
      : []),
    ...setup.providers.flatMap((p) => p.models.map((m) => row(p.id, m.id, m.name, p.missing))),
  ];
  return { files, trusted, ...(loaded.ok ? {} : { configError: loaded.error }), setup, models };
}
