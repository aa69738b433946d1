/**
 * Whether a connection keeps its sessions' replay cache, and what publishing a session's records
 * does to it: the wire wires these, the cache's logic stays here.
 */
import type { StoredFact } from "../../journal/facts/index.ts";
import type { JournalStore } from "../../journal/store.ts";
import type { ReplayCapabilities } from "../../replay/cache-key.ts";
import { ReplayCacheWriter, replayCacheEnabled } from "./replay-cache-writer.ts";
import type { ReplaySeal } from "./replay-seal.ts";

/** The journal, when it keeps a replay cache and the cache is on (`VERBATIM_REPLAY_CACHE`); undefined otherwise. */
export function replayCacheOf(
  store: JournalStore,
  env: Record<string, string | undefined> = process.env,
): JournalStore | undefined {
  return replayCacheEnabled(env) && store.keepsReplayCache ? store : undefined;
}

/**
 * `show` for one session's published records, each then observed by the session's replay cache
 * writer (for a client of `capabilities`, its rows sealed with `seal`) when `cache` is kept;
 * `show` itself when it is not.
 */
export function keptInCache(
  show: (record: StoredFact) => void,
  cache: JournalStore | undefined,
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
