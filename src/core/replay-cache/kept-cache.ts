/**
 * Whether a connection keeps its sessions' replay cache, and what publishing a session's records
 * does to it: the wire wires these, the cache's logic stays here.
 */
import type { StoredFact } from "../../journal/facts/index.ts";
import type { LeaseStore, FactStore } from "../../journal/store.ts";
import type { ReplayCacheStore } from "../../journal/replay-cache.ts";
import type { ReplayCapabilities } from "../../replay/cache-key.ts";
import { ReplayCacheWriter, replayCacheEnabled } from "./replay-cache-writer.ts";
import type { ReplaySeal } from "./replay-seal.ts";

/** The journal, when it keeps a replay cache and the cache is on (`VERBATIM_REPLAY_CACHE`); undefined otherwise. */
export function replayCacheOf(
  store: FactStore & LeaseStore & ReplayCacheStore,
  env: Record<string, string | undefined> = process.env,
): (FactStore & LeaseStore & ReplayCacheStore) | undefined {
  return replayCacheEnabled(env) && store.keepsReplayCache ? store : undefined;
}

/**
 * `show` for one session's published records, each then observed by the session's replay cache
 * writer (for a client of `capabilities`, its rows sealed with `seal`) when `cache` is kept;
 * `show` itself when it is not.
 */
export function keptInCache(
  show: (record: StoredFact) => void,
  cache: (FactStore & LeaseStore & ReplayCacheStore) | undefined,
  sessionId: string,
  capabilities: ReplayCapabilities,
  seal: ReplaySeal | undefined,
): (record: StoredFact) => void {
  if (!cache) return show;
  const writer = new ReplayCacheWriter(cache, sessionId, capabilities, seal);
  return (record) => {
    show(record);
    writer.observe(record);
  };
}
