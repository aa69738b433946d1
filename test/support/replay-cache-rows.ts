/** Storing a replay cache derived in a test (cacheOf) straight into a journal's database, as the writer would. */
import { Database } from "bun:sqlite";
import { partWithChecksum, withChecksum } from "../../src/journal/replay-cache.ts";
import { putUpdate, schemaVersion, settleCacheTrust } from "../../src/journal/sqlite-replay-cache.ts";
import type { StatePart } from "../../src/replay/replay-state.ts";
import { cacheKey, type ReplayCapabilities } from "../../src/replay/cache-key.ts";
import type { ReplaySegment } from "../../src/replay/replay-segments.ts";

export type DerivedCache = { rows: ReplaySegment[]; parts: StatePart[] };

export function storeCache(
  path: string,
  sessionId: string,
  capabilities: ReplayCapabilities,
  cache: DerivedCache,
  /** The session's last rewind, if it has one: the cache is stored under its key. */
  rewoundAt?: number,
): void {
  const key = cacheKey(capabilities, rewoundAt);
  const db = new Database(path);
  try {
    // As a writer opening the journal does: the schema as it stands is the one the cache is kept under.
    db.transaction(() => settleCacheTrust(db, schemaVersion(db))).immediate();
    putUpdate(db, sessionId, key, {
      rows: cache.rows.map(withChecksum),
      parts: cache.parts.map((p) => partWithChecksum(key, p)),
    });
  } finally {
    db.close();
  }
}
