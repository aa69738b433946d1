/**
 * The replay cache: for each finished turn, the lines replaying it sends, and the session state
 * after the last cached turn; derived from the facts and never a fact itself. A row covers the
 * records `fromSeq..toSeq` (from the record after the previous turn's end to this turn's
 * `turn_ended`), so a session's rows tile its journal from record 1. The state is kept in parts
 * (replay/replay-state.ts): a `head` naming the last record it has folded, and one part per card,
 * hook outcome and compaction, so that a turn's end rewrites only what the turn changed. Rows and
 * parts are keyed by the projection's version and the client capabilities that change what replay
 * sends; the writer holding the lease may replace or drop them at any time, and a load uses them
 * only when the key matches and every checksum holds (else it replays the facts).
 */
export type ReplayCacheKey = { version: number; capabilities: string };

export type ReplayCacheRow = ReplayCacheKey & {
  fromSeq: number;
  toSeq: number;
  /** The NDJSON lines (each ending in a newline) replaying the records sends, as written to stdout. */
  lines: string;
  checksum: string;
};

/**
 * A row as a load reads it: its lines as the store holds them, bytes where the store can hand
 * them over undecoded (SQLite), so that they go to stdout without a trip through a string.
 */
export type ReplayCachePageRow = Omit<ReplayCacheRow, "lines"> & { lines: string | Uint8Array };

/** One part of the state after the last cached turn (see replay-state.ts for `part` and `body`). */
export type ReplayStatePart = { part: string; ord: number; body: string; checksum: string };

/**
 * Rows a page of `readReplayPages` holds at most on PostgreSQL, where each page is a round trip
 * (about 1 MB of lines for streamed turns). SQLite's pages are smaller (sqlite-replay-cache.ts).
 */
export const REPLAY_PAGE_ROWS = 256;

/** What a turn's end stores: its row, and the parts of the state it changed (the head always among them). */
/** Rows and parts to store under one key; `drop`: keys whose rows and parts go, in the same transaction. */
export type ReplayCacheUpdate = {
  rows: readonly ReplayCacheRow[];
  parts: readonly ReplayStatePart[];
  drop?: readonly ReplayCacheKey[];
};

/**
 * A fast non-cryptographic hash: the cache is derived data kept by the writer itself, so the
 * checksum guards against corruption (a torn or edited row), not against an adversary, and a load
 * hashes every byte it writes from the cache. The short head (key, range or name) seeds the hash
 * of the long body, so the body is hashed where it lies, never copied into one string with the head.
 */
const hash = (head: string, body: string | Uint8Array): string =>
  Bun.hash.xxHash3(body, Bun.hash.xxHash3(head)).toString(16);

/** The checksum a row must carry: over its key, its range and its lines (the same for their UTF-8 bytes). */
export function replayCacheChecksum(row: Omit<ReplayCachePageRow, "checksum">): string {
  return hash(`${row.version}\n${row.capabilities}\n${row.fromSeq}\n${row.toSeq}`, row.lines);
}

/** The row with its checksum. */
export function withChecksum(row: Omit<ReplayCacheRow, "checksum">): ReplayCacheRow {
  return { ...row, checksum: replayCacheChecksum(row) };
}

/** The checksum of a row as stored: the checksum alone, or with a seal after it (`<checksum>.<key id>.<MAC>`). */
export type StoredChecksum = { checksum: string; seal?: { keyId: string; mac: string } };

export function storedChecksum(stored: string): StoredChecksum {
  const [checksum = "", keyId, mac] = stored.split(".", 3);
  return keyId !== undefined && mac !== undefined ? { checksum, seal: { keyId, mac } } : { checksum };
}

/** The row's checksum with `seal` after it (core/replay-cache/replay-seal.ts). */
export function sealedChecksum(row: ReplayCacheRow, seal: { keyId: string; mac: string }): string {
  return `${storedChecksum(row.checksum).checksum}.${seal.keyId}.${seal.mac}`;
}

export function checksumHolds(row: ReplayCachePageRow): boolean {
  return replayCacheChecksum(row) === storedChecksum(row.checksum).checksum;
}

/**
 * The row's MAC under `key` (HMAC-SHA-256): over its session, its cache key, its range and its
 * lines (the same for their UTF-8 bytes), so that a sealed row holds only where it was stored.
 */
export function replayRowMac(key: Uint8Array, sessionId: string, row: Omit<ReplayCachePageRow, "checksum">): string {
  const hasher = new Bun.CryptoHasher("sha256", key);
  hasher.update(
    `verbatim replay cache row\n${sessionId}\n${row.version}\n${row.capabilities}\n${row.fromSeq}\n${row.toSeq}\n`,
  );
  hasher.update(row.lines);
  return hasher.digest("hex");
}

/** The checksum a state part must carry, over its key, name, order and body. */
export function statePartChecksum(key: ReplayCacheKey, part: Omit<ReplayStatePart, "checksum">): string {
  return hash(`${key.version}\n${key.capabilities}\n${part.part}\n${part.ord}`, part.body);
}

export function partWithChecksum(key: ReplayCacheKey, part: Omit<ReplayStatePart, "checksum">): ReplayStatePart {
  return { ...part, checksum: statePartChecksum(key, part) };
}

export function partChecksumHolds(key: ReplayCacheKey, part: ReplayStatePart): boolean {
  return statePartChecksum(key, part) === part.checksum;
}

/** What a store keeps of the replay cache (see JournalStore). */
export interface ReplayCacheStore {
  /** Whether this store keeps a replay cache at all (a writer computes no rows for one that does not). */
  readonly keepsReplayCache: boolean;
  /**
   * Stores rows and state parts for a session under `key`, in one transaction, if this process
   * holds the session's lease; rejects with `busy` otherwise. A row replaces any with the same key
   * and `fromSeq`; a part replaces the body of any with the same key and name, keeping its first
   * `ord`. Every row and part under a key `update.drop` names is deleted first. A store without a
   * cache resolves having stored nothing.
   */
  putReplayCache(sessionId: string, key: ReplayCacheKey, update: ReplayCacheUpdate): Promise<void>;
  /** The keys the session's rows and parts are stored under. Never writes; none for a store without a cache. */
  replayCacheKeys(sessionId: string): Promise<ReplayCacheKey[]>;
  /** The session's rows with `key` (every key when omitted), by `fromSeq`. Never writes; none for a store without a cache. */
  readReplayCache(sessionId: string, key?: ReplayCacheKey): Promise<ReplayCacheRow[]>;
  /**
   * The session's rows with `key`, from the one starting at `fromSeq` on, in pages by `fromSeq`
   * (a load writes each page as it comes). Never writes; none for a store without a cache.
   */
  readReplayPages(
    sessionId: string,
    key: ReplayCacheKey,
    fromSeq?: number,
  ): AsyncIterable<readonly ReplayCachePageRow[]>;
  /**
   * The session's state parts with `key`, by `ord` then name: every part, or only those `names`
   * names (a load reads the head and the open calls' cards first). Never writes; none for a
   * store without a cache.
   */
  readReplayState(sessionId: string, key: ReplayCacheKey, names?: readonly string[]): Promise<ReplayStatePart[]>;
  /** Bytes the session's cache holds (lines and state), and its facts' stored bodies: for measuring. */
  replayCacheSize(sessionId: string): Promise<{ cacheBytes: number; factBytes: number }>;
}

/** A cache row as both stores' tables hold it (snake_case columns), its lines as read (text or bytes). */
export type CacheDbRow<Lines extends string | Uint8Array = string> = {
  version: number;
  capabilities: string;
  from_seq: number;
  to_seq: number;
  lines: Lines;
  checksum: string;
};

/** The row a store read, with its lines as the store hands them over (on PostgreSQL, unpacked: postgres-packed-lines.ts). */
export const cacheRowFromDb = <Lines extends string | Uint8Array>(
  r: CacheDbRow<string | Uint8Array>,
  lines: Lines,
): Omit<ReplayCacheRow, "lines"> & { lines: Lines } => ({
  version: r.version,
  capabilities: r.capabilities,
  fromSeq: r.from_seq,
  toSeq: r.to_seq,
  lines,
  checksum: r.checksum,
});
