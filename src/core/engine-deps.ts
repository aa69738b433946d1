/** Wires the engine from the environment: the journal, the model catalog, the tools, the hooks. */
import { openJournal } from "./config/open-journal.ts";
import { VERSION } from "../shared/version.ts";
import { hookSettings } from "./hooks/settings.ts";
import { isTrusted } from "./hooks/trust.ts";
import { catalogFromEnv, type ProviderCatalog } from "./providers/catalog.ts";
import { replaySeal } from "./replay-cache/replay-seal.ts";
import type { EngineDeps } from "./session/session-runtime.ts";
import { defaultTools, ToolRegistry } from "./tools/registry.ts";

/** The cap on model steps in one turn; past it the turn ends `max_turn_requests`. */
const MAX_STEPS = 50;

/** `trust`: project hooks run in every workspace (the `--trust` flag, for headless runs). */
export function engineDeps(
  env: Record<string, string | undefined> = process.env,
  options: { trust?: boolean; catalog?: ProviderCatalog } = {},
): EngineDeps {
  const catalogs = new Map<string, ProviderCatalog>(options.catalog ? [[process.cwd(), options.catalog]] : []);
  /** One catalog per workspace: its project config file, read as that workspace's trust allows. */
  const catalogFor = (cwd: string) => {
    let catalog = catalogs.get(cwd);
    if (!catalog) {
      catalog = catalogFromEnv(env, cwd, { trustProject: (options.trust ?? false) || isTrusted(env, cwd) });
      catalogs.set(cwd, catalog);
    }
    return catalog;
  };
  return {
    store: openJournal(env),
    catalog: catalogFor(process.cwd()),
    catalogFor,
    tools: new ToolRegistry(defaultTools()),
    agentVersion: VERSION,
    maxSteps: Number(env.VERBATIM_MAX_STEPS) > 0 ? Number(env.VERBATIM_MAX_STEPS) : MAX_STEPS,
    hooks: hookSettings(env, { trustAll: options.trust ?? false }),
    replaySeal: replaySeal(env),
  };
}
