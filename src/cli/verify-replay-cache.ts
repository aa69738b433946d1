/**
 * The store-level check of a session's replay cache: every row of this projection version, and
 * the state stored after the last cached turn, are recomputed from the facts and compared. Rows
 * of another version are never used by a load and are only counted. Never writes.
 */
import {
  checksumHolds,
  partChecksumHolds,
  type ReplayCacheKey,
  type ReplayCacheRow,
  type ReplayStatePart,
} from "../journal/replay-cache.ts";
import type { FactStore } from "../journal/store.ts";
import type { ReplayCacheStore } from "../journal/replay-cache.ts";
import { stateHead, type StatePart } from "../replay/replay-state.ts";
import { PROJECTION_VERSION, type ReplayCapabilities } from "../replay/cache-key.ts";
import { ReplaySegments, type ReplaySegment } from "../replay/replay-segments.ts";
import { retractionOf } from "../replay/retraction.ts";

export type CacheDifference = { capabilities: string; fromSeq: number; toSeq: number; reason: string };

export type CacheReport = {
  checked: number;
  /** State parts checked (the state after each capability set's last cached turn). */
  stateParts: number;
  otherVersions: number;
  differences: CacheDifference[];
};

export async function verifyReplayCache(store: FactStore & ReplayCacheStore, sessionId: string): Promise<CacheReport> {
  const rows = await store.readReplayCache(sessionId);
  const current = rows.filter((r) => r.version === PROJECTION_VERSION);
  const differences: CacheDifference[] = [];
  let stateParts = 0;
  for (const [capabilities, group] of Map.groupBy(current, (r) => r.capabilities)) {
    const parsed = parseCapabilities(capabilities);
    if (!parsed) {
      for (const row of group)
        differences.push({ capabilities, fromSeq: row.fromSeq, toSeq: row.toSeq, reason: "unknown capability set" });
      continue;
    }
    const key = { version: PROJECTION_VERSION, capabilities };
    const stored = await store.readReplayState(sessionId, key);
    stateParts += stored.length;
    const head = stored.length > 0 ? safeHead(stored) : undefined;
    const expected = await recompute(store, sessionId, parsed, head?.toSeq);
    for (const row of group) {
      const reason = differs(row, expected.rows.get(row.fromSeq));
      if (reason) differences.push({ capabilities, fromSeq: row.fromSeq, toSeq: row.toSeq, reason });
    }
    if (stored.length > 0)
      for (const reason of stateDifferences(key, stored, head?.toSeq, expected.parts))
        differences.push({ capabilities, fromSeq: 1, toSeq: head?.toSeq ?? 0, reason });
  }
  return { checked: current.length, stateParts, otherVersions: rows.length - current.length, differences };
}

/** The rows the facts derive to, and every state part at `stateAt` (if a turn ends there). */
async function recompute(
  store: FactStore & ReplayCacheStore,
  sessionId: string,
  capabilities: ReplayCapabilities & { rewoundAt?: number },
  stateAt: number | undefined,
): Promise<{ rows: Map<number, ReplaySegment>; parts: StatePart[] | undefined }> {
  const retraction = await retractionAt(store, sessionId, capabilities.rewoundAt);
  const segments = new ReplaySegments(sessionId, capabilities, retraction);
  const rows = new Map<number, ReplaySegment>();
  let parts: StatePart[] | undefined;
  for await (const page of store.readPages(sessionId))
    for (const record of page) {
      const turn = segments.push(record);
      if (!turn) continue;
      rows.set(turn.row.fromSeq, turn.row);
      if (record.seq === stateAt) parts = segments.allParts();
    }
  return { rows, parts };
}

function differs(row: ReplayCacheRow, expected: ReplaySegment | undefined): string | undefined {
  if (!checksumHolds(row)) return "its checksum fails";
  if (!expected) return "no finished turn of the facts starts there";
  if (expected.toSeq !== row.toSeq) return `the facts' turn ends at record ${expected.toSeq}`;
  if (expected.lines !== row.lines) return "its lines differ from a replay of the facts";
  return undefined;
}

function stateDifferences(
  key: ReplayCacheKey,
  stored: readonly ReplayStatePart[],
  toSeq: number | undefined,
  expected: readonly StatePart[] | undefined,
): string[] {
  if (toSeq === undefined) return ["the stored state has no readable head"];
  if (!expected)
    return [`the stored state is said to end at record ${toSeq}, where no finished turn of the facts ends`];
  const reasons: string[] = [];
  const want = new Map(expected.map((p) => [p.part, p]));
  for (const part of stored) {
    const e = want.get(part.part);
    want.delete(part.part);
    if (!partChecksumHolds(key, part)) reasons.push(`state part ${part.part}: its checksum fails`);
    else if (!e) reasons.push(`state part ${part.part}: the facts have no such part`);
    else if (e.body !== part.body || e.ord !== part.ord)
      reasons.push(`state part ${part.part}: differs from the facts`);
  }
  for (const name of want.keys()) reasons.push(`state part ${name}: missing`);
  return reasons;
}

function safeHead(parts: readonly ReplayStatePart[]) {
  try {
    return stateHead(parts);
  } catch {
    return undefined;
  }
}

/** A key's capabilities, and the rewind it was stored after, if any (replay/cache-key.ts). */
function parseCapabilities(text: string): (ReplayCapabilities & { rewoundAt?: number }) | undefined {
  const match = /^notices=([01]);compaction=([01])(?:;rewound=([1-9][0-9]*))?$/.exec(text);
  if (!match) return undefined;
  const capabilities = { notices: match[1] === "1", compaction: match[2] === "1" };
  return match[3] === undefined ? capabilities : { ...capabilities, rewoundAt: Number(match[3]) };
}

/** What the rewind recorded at `seq` took back (none when no rewind is recorded there). */
async function retractionAt(store: FactStore & ReplayCacheStore, sessionId: string, seq: number | undefined) {
  if (seq === undefined) return undefined;
  for await (const page of store.readPages(sessionId, seq))
    return retractionOf(page[0]?.seq === seq ? page[0] : undefined);
  return undefined;
}
