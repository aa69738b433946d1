/**
 * A load's look-up of the session's last rewind, which it needs before it sends anything
 * (replay/retraction.ts). Finding it in the facts means looking through every record of the
 * session (tens of milliseconds for 10,000 turns), and most sessions were never rewound: a
 * session whose replay cache state (under the key of a session never rewound) folded no rewind,
 * and whose records after that state hold none, was never rewound, and is told so without the scan.
 * A damaged or missing state, or a long way after it, falls back to the facts. Never writes.
 */
import { partChecksumHolds, type ReplayCacheKey, type ReplayCacheStore } from "../../journal/replay-cache.ts";
import type { FactStore } from "../../journal/store.ts";
import { cacheKey, type ReplayCapabilities } from "../../replay/cache-key.ts";
import type { StateHead } from "../../replay/replay-state.ts";
import { retractionOf, type Retraction } from "../../replay/retraction.ts";

/** Records after the cached state looked through for a rewind before the facts are searched instead. */
const TAIL_RECORDS = 4096;

/** The session's last rewind, told without reading the session when the replay cache (`cache`, under a client's capabilities) says it was never rewound. */
export async function lastRewind(
  store: FactStore,
  sessionId: string,
  cache?: { store: FactStore & ReplayCacheStore; capabilities: ReplayCapabilities },
): Promise<Retraction | undefined> {
  if (cache && (await neverRewound(store, cache.store, sessionId, cacheKey(cache.capabilities)))) return undefined;
  return lastRetraction(store, sessionId);
}

/** What the session's last rewind took back, from its facts (none when it was never rewound). */
export async function lastRetraction(
  store: Pick<FactStore, "lastOf">,
  sessionId: string,
): Promise<Retraction | undefined> {
  return retractionOf(await store.lastOf(sessionId, ["session_rewound"]));
}

async function neverRewound(
  store: FactStore,
  cache: ReplayCacheStore,
  sessionId: string,
  key: ReplayCacheKey,
): Promise<boolean> {
  const [part] = await cache.readReplayState(sessionId, key, ["head"]);
  if (!part || !partChecksumHolds(key, part)) return false;
  const head = JSON.parse(part.body) as StateHead;
  // The fold says `retracted` once it has folded a rewind (replay/state.ts).
  if ((JSON.parse(head.fold) as { retracted?: unknown }).retracted !== undefined) return false;
  let seen = 0;
  for await (const page of store.readPages(sessionId, head.toSeq + 1))
    for (const record of page) {
      if (record.fact.kind === "session_rewound" || ++seen > TAIL_RECORDS) return false;
    }
  return true;
}
