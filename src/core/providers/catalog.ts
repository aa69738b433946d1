/**
 * Which providers and models this process can use, from the config files and the environment.
 * The scripted provider is listed only when chosen explicitly; there is never a silent fallback
 * to it. With nothing usable configured, `defaultModel()` is undefined and `setupHint` says
 * exactly what to set.
 */
import type { ModelRef } from "../../journal/facts/index.ts";
import type { ModelChoice } from "../config/config-options.ts";
import { loadSettings, settingsFiles } from "../config/settings.ts";
import { journalUrlSecrets, type CommandSecrets } from "../tools/shell/command-env.ts";
import { lazyProvider } from "./lazy-provider.ts";
import { GENERIC_HINT, resolveProviders, type ProviderSetup, type ResolvedProvider } from "./provider-config.ts";
import { scenarios } from "./scripted/scenarios.ts";
import { scriptedProvider } from "./scripted/scripted-provider.ts";
import { setupMethods, type SetupMethod } from "./setup-methods.ts";
import type { ThoughtLevel } from "../config/thought-levels.ts";
import type { Provider } from "./types.ts";
import { defined } from "../../shared/defined.ts";
import { autoCompactPct } from "../config/autocompact-threshold.ts";

export interface ProviderCatalog {
  /** The models a session may choose. */
  models(): ModelChoice[];
  /** The model new sessions use, or undefined when no provider is configured. */
  defaultModel(): ModelRef | undefined;
  provider(ref: ModelRef): Provider | undefined;
  /**
   * What to set to configure a provider: for the authentication-required error when none is
   * usable, else for a session whose recorded model's provider is not configured here.
   */
  readonly setupHint: string;
  /** Ways to configure a provider, offered to clients while none is configured. */
  setupMethods(): SetupMethod[];
  /** Reads the config files again (after the user changed them). */
  reload(): void;
  /**
   * The mode and thinking level new sessions start in, where the config files set them, and the
   * compaction threshold's share of each model's window (config/autocompact-threshold.ts).
   */
  defaults(): { modeId?: string; thoughtLevel?: ThoughtLevel; autoCompactPct?: number };
  /** What the config files set that was not applied (shown to the user as a notice). */
  warnings(): string[];
  /**
   * The key variables the config files name (`apiKeyEnv`), and every key and header value and the
   * journal URL's password: kept from commands.
   */
  secrets(): CommandSecrets;
}

const OTHER_MODEL_HINT =
  'Configure its provider (see verbatim\'s README, "Models and providers"), or choose one of the listed models for this session.';

/**
 * The catalog for sessions in `cwd`: the user's config file, then the project's
 * (`cwd/.verbatim/config.json`). Unless the workspace is trusted, the project file cannot say
 * where requests go or with which key (see `loadSettings`).
 */
export function catalogFromEnv(
  env: Record<string, string | undefined> = process.env,
  cwd = process.cwd(),
  options: { trustProject: boolean } = { trustProject: false },
): ProviderCatalog {
  const files = settingsFiles(env, cwd);
  let loaded = loadSettings(files, options);
  const resolve = (): ProviderSetup => {
    loaded = loadSettings(files, options);
    return loaded.ok
      ? resolveProviders(loaded.settings, env, files.user)
      : {
          providers: [],
          scripted: false,
          problem: `verbatim's config file is not valid, so no provider is configured. ${loaded.error}`,
        };
  };
  let setup = resolve();
  let adapters = new Map<string, Provider>();
  const load = () => {
    setup = resolve();
    adapters = new Map();
  };
  const ready = () => setup.providers.filter((p) => !p.missing);
  const adapter = (p: ResolvedProvider) => {
    let a = adapters.get(p.id);
    if (!a) {
      // The adapter and its SDK load when the provider first streams.
      a = lazyProvider(p);
      adapters.set(p.id, a);
    }
    return a;
  };
  return {
    get setupHint() {
      if (setup.problem) return setup.problem;
      return setup.defaultModel ? OTHER_MODEL_HINT : GENERIC_HINT;
    },
    models: () => [
      ...(setup.scripted
        ? Object.entries(scenarios).map(([name, s]) => ({
            ref: { provider: "scripted", model: name },
            name: `Scripted: ${name}`,
            description: s.description,
          }))
        : []),
      ...ready().flatMap((p) => p.models.map((m) => ({ ref: { provider: p.id, model: m.id }, name: m.name }))),
    ],
    defaultModel: () => setup.defaultModel,
    provider: (ref) => {
      if (ref.provider === "scripted") return scriptedProvider;
      const p = ready().find((r) => r.id === ref.provider);
      return p ? adapter(p) : undefined;
    },
    setupMethods: () => (setup.defaultModel ? [] : setupMethods(files.user)),
    reload: load,
    defaults: () => {
      const { pct } = autoCompactPct(env, loaded.ok ? loaded.settings.autoCompactPct : undefined);
      if (!loaded.ok) return { autoCompactPct: pct };
      const { defaultMode, thoughtLevel } = loaded.settings;
      return { ...(defaultMode ? { modeId: defaultMode } : {}), ...defined({ thoughtLevel }), autoCompactPct: pct };
    },
    warnings: () => [...(loaded.ok ? loaded.warnings : []), ...autoCompactPct(env, undefined).warnings],
    secrets: () => ({
      names: loaded.ok
        ? Object.values(loaded.settings.providers ?? {}).flatMap((p) => (p.apiKeyEnv ? [p.apiKeyEnv] : []))
        : [],
      values: [
        ...setup.providers.flatMap((p) => [...(p.apiKey ? [p.apiKey] : []), ...Object.values(p.headers)]),
        // The journal's password, from the environment or the user config, wherever it was copied.
        ...journalUrlSecrets(env.VERBATIM_JOURNAL),
        ...journalUrlSecrets(loaded.ok ? loaded.settings.journal?.url : undefined),
      ],
    }),
  };
}
