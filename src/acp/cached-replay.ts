/**
 * A load's use of the replay cache: the longest run of valid rows from record 1 (this
 * projection's version, this client's capabilities, checksum holding, each row starting where the
 * one before ended), written as it is read; then the state stored after the run's last turn, when
 * it is there and whole (its head names that turn's end, every part's checksum holds). With the
 * state, the load restores the session from it and reads only the records after it; without, it
 * reads and folds every record but sends nothing for those the run covers. Everything after the
 * run replays from the facts. Never writes.
 */
import {
  checksumHolds,
  partChecksumHolds,
  type ReplayCacheKey,
  type ReplayStatePart,
} from "../journal/replay-cache.ts";
import type { JournalStore } from "../journal/store.ts";
import { log } from "../log.ts";
import { stateHead, type StateHead } from "../replay/replay-state.ts";

/** The state after the cached run's last turn, checked. */
export type CachedState = { parts: readonly ReplayStatePart[]; head: StateHead };

/** Lines handed to `send` at once: rows are joined up to this size, so a long session is a few hundred writes. */
const LINES_PER_SEND = 256 * 1024;

/**
 * Reads the valid run of rows from record 1, handing their lines to `send` in order as they are
 * read (joined into sends of about LINES_PER_SEND; `send` may return a promise to slow the read
 * to the client's pace). Returns the last record the run covers (0: no valid row).
 */
export async function sendCachedRun(
  store: JournalStore,
  sessionId: string,
  key: ReplayCacheKey,
  send: (lines: string) => Promise<void> | void,
): Promise<number> {
  let next = 1;
  let batch = "";
  run: for await (const page of store.readReplayPages(sessionId, key)) {
    for (const row of page) {
      if (row.fromSeq !== next || row.toSeq < row.fromSeq) break run;
      if (!checksumHolds(row)) {
        log.warn(
          `replay cache of session ${sessionId} fails its checksum at records ${row.fromSeq}-${row.toSeq}; replaying from the facts`,
        );
        break run;
      }
      next = row.toSeq + 1;
      batch += row.lines;
      if (batch.length < LINES_PER_SEND) continue;
      const lines = batch;
      batch = "";
      await send(lines);
    }
  }
  if (batch) await send(batch);
  return next - 1;
}

/**
 * The stored state, if it is whole and (when `coveredTo` is given) the state after that record,
 * the end of the run a load has written.
 */
export async function cachedState(
  store: JournalStore,
  sessionId: string,
  key: ReplayCacheKey,
  coveredTo: number | undefined,
): Promise<CachedState | undefined> {
  if (coveredTo === 0) return undefined;
  const parts = await store.readReplayState(sessionId, key);
  if (parts.length === 0) return undefined;
  const bad = parts.find((p) => !partChecksumHolds(key, p));
  if (bad) {
    log.warn(`replay cache state of session ${sessionId} fails its checksum (${bad.part}); folding the facts`);
    return undefined;
  }
  const head = stateHead(parts);
  return head && (coveredTo === undefined || head.toSeq === coveredTo) ? { parts, head } : undefined;
}
