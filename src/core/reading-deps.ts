/**
 * What reading and replaying a stored session needs from the environment, apart from the engine:
 * the journal, the replay cache's seal, and each workspace's catalog (for the models a session's
 * config options list). A load that arrives before the engine has loaded is served from these
 * (src/acp/replay-first.ts); the engine is then wired to the same ones (engine-deps.ts).
 */
import { openJournal } from "./config/open-journal.ts";
import { isTrusted } from "./hooks/trust.ts";
import { catalogFromEnv, type ProviderCatalog } from "./providers/catalog.ts";
import { replaySeal } from "./replay-cache/replay-seal.ts";
import type { EngineDeps } from "./session/session-types.ts";

export type ReadingDeps = Pick<EngineDeps, "store" | "catalog" | "catalogFor" | "replaySeal">;

/**
 * Opens the journal and makes the catalogs (`catalog`: the process directory's, when already
 * made, as `initialize` makes it); `trust`: project config is read in every workspace (the
 * `--trust` flag). The catalog of each workspace, `catalog` included, is made once, when first
 * asked for: a load reads only its session's workspace's config.
 */
export function readingDeps(
  env: Record<string, string | undefined> = process.env,
  options: { trust?: boolean; catalog?: ProviderCatalog } = {},
): ReadingDeps {
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
    get catalog() {
      return catalogFor(process.cwd());
    },
    catalogFor,
    replaySeal: replaySeal(env),
  };
}
