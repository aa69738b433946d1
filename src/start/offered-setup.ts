/**
 * The ways to configure a provider that `initialize` offers: none once a provider is usable, else
 * every setup method. The question the provider catalog answers (`catalogFromEnv(...).setupMethods()`,
 * src/core/providers/catalog.ts), asked of the same config reading and provider resolution without
 * loading the catalog's providers: the start path answers `initialize` with it. A process test holds
 * the two answers equal, byte for byte, with and without config files.
 */
// First: the config's schemas are built when their module loads, and each is parsed once here.
import "../shared/zod-jitless.ts";
import { loadSettings, settingsFiles } from "../core/config/settings.ts";
import { isTrusted } from "../core/hooks/trust.ts";
import { resolveProviders } from "../core/providers/provider-config.ts";
import { setupMethods, type SetupMethod } from "../core/providers/setup-methods.ts";

type Env = Record<string, string | undefined>;

/** `trust`: every workspace is trusted (`--trust`); else the project's own trust decides. */
export function offeredSetupMethods(env: Env, cwd: string, trust: boolean): SetupMethod[] {
  const files = settingsFiles(env, cwd);
  const loaded = loadSettings(files, { trustProject: trust || isTrusted(env, cwd) });
  const usable = loaded.ok && resolveProviders(loaded.settings, env, files.user).defaultModel !== undefined;
  return usable ? [] : setupMethods(files.user);
}
