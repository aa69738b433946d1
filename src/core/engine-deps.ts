/** Wires the engine from the environment: the journal, the model catalog, the tools, the hooks. */
import { VERSION } from "../shared/version.ts";
import { hookSettings } from "./hooks/settings.ts";
import type { ProviderCatalog } from "./providers/catalog.ts";
import { readingDeps, type ReadingDeps } from "./reading-deps.ts";
import type { EngineDeps } from "./session/session-runtime.ts";
import { defaultTools, ToolRegistry } from "./tools/registry.ts";

/** The cap on model steps in one turn; past it the turn ends `max_turn_requests`. */
const MAX_STEPS = 50;

/**
 * `trust`: project hooks run in every workspace (the `--trust` flag, for headless runs);
 * `reading`: the journal and catalogs already opened for reading (reading-deps.ts), made from
 * `env` when not given.
 */
export function engineDeps(
  env: Record<string, string | undefined> = process.env,
  options: { trust?: boolean; catalog?: ProviderCatalog; reading?: ReadingDeps } = {},
): EngineDeps {
  const reading = options.reading ?? readingDeps(env, options);
  return {
    store: reading.store,
    catalog: reading.catalog,
    catalogFor: reading.catalogFor,
    tools: new ToolRegistry(defaultTools()),
    agentVersion: VERSION,
    maxSteps: Number(env.VERBATIM_MAX_STEPS) > 0 ? Number(env.VERBATIM_MAX_STEPS) : MAX_STEPS,
    hooks: hookSettings(env, { trustAll: options.trust ?? false }),
    ...(reading.replaySeal ? { replaySeal: reading.replaySeal } : {}),
  };
}
