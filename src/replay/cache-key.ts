/**
 * The replay cache's key: the projection's version and the client capabilities that change what
 * replay sends. Pure.
 */
import type { ClientCapabilities } from "@agentclientprotocol/sdk/unstable";
import type { ReplayCacheKey } from "../journal/replay-cache.ts";

/**
 * Names the projection: any change to what replay sends, or to the state the cache keeps, bumps
 * it, so that no cache stored by another projection is used (test/replay/replay-cache-goldens.test.ts).
 */
export const PROJECTION_VERSION = 2;

/** The client capabilities that change what replay sends. */
export type ReplayCapabilities = { notices: boolean; compaction: boolean };

/** The capabilities of a client (its `initialize`) that change what replay sends it. */
export function replayCapabilities(client: ClientCapabilities): ReplayCapabilities {
  const session = client.session;
  return { notices: session?.notices != null, compaction: session?.compaction != null };
}

/**
 * `rewoundAt`: the session's last rewind (its record's place), if it has one. A rewind changes
 * what the replay of earlier turns sends (it leaves their entries out), so rows and state stored
 * before it are under another key and never used after it; the writer stores them all again under
 * this one (core/replay-cache/replay-cache-writer.ts). A session never rewound keeps the key it always had.
 */
export function cacheKey(capabilities: ReplayCapabilities, rewoundAt?: number): ReplayCacheKey {
  const rewound = rewoundAt === undefined ? "" : `;rewound=${rewoundAt}`;
  return {
    version: PROJECTION_VERSION,
    capabilities: `notices=${capabilities.notices ? 1 : 0};compaction=${capabilities.compaction ? 1 : 0}${rewound}`,
  };
}

/**
 * The keys among `keys` that no load of this projection uses again once the session's last rewind
 * is the one at `rewoundAt` (none: never rewound): this version's keys stored before that rewind.
 * Other versions' keys are left to the verbatim that reads them (a journal may be shared).
 */
export function staleKeys(keys: readonly ReplayCacheKey[], rewoundAt?: number): ReplayCacheKey[] {
  const current = rewoundAt === undefined ? undefined : String(rewoundAt);
  return keys.filter(
    (key) => key.version === PROJECTION_VERSION && /;rewound=(\d+)$/.exec(key.capabilities)?.[1] !== current,
  );
}
