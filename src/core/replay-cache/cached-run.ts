/**
 * The run of a session's replay cache a load writes first: the longest run of valid rows from
 * record 1 (this projection's version, this client's capabilities, each row starting where the one
 * before ended, and sealed by this user's key: replay-seal.ts), each row's lines written as the
 * store gave them, at the client's pace. A row of another key (another machine's, on a shared
 * journal), from before the seal, or unsealed is never written: whoever can write the cache could
 * have written it, so the load replays its records from the facts. Never writes to the journal.
 */
import type { ReplayCacheKey, ReplayCachePageRow, ReplayCacheStore } from "../../journal/replay-cache.ts";
import { log } from "../../shared/log.ts";
import type { ReplaySeal } from "./replay-seal.ts";

/**
 * Lines handed to `send` at once: rows are gathered up to this size, so a long session is a few
 * hundred sends, and the client has the first of a page's lines while the rest are checked.
 */
const LINES_PER_SEND = 128 * 1024;

/**
 * Reads the valid run of rows from record 1, handing their lines to `send` in order as they are
 * read (gathered into sends of about LINES_PER_SEND, each row's lines as the store gave them:
 * text or bytes; `send` may return a promise to slow the read to the client's pace). Returns the
 * last record the run covers (0: no valid row). Without `seal` (no usable key), no row is valid.
 */
export async function sendCachedRun(
  store: Pick<ReplayCacheStore, "readReplayPages">,
  sessionId: string,
  key: ReplayCacheKey,
  send: (lines: readonly (string | Uint8Array)[]) => Promise<void> | void,
  seal?: ReplaySeal,
): Promise<number> {
  let next = 1;
  let batch: (string | Uint8Array)[] = [];
  let size = 0;
  run: for await (const page of store.readReplayPages(sessionId, key)) {
    for (const row of page) {
      if (row.fromSeq !== next || row.toSeq < row.fromSeq) break run;
      const problem = rowProblem(row, sessionId, seal);
      if (problem) {
        log.warn(
          `replay cache of session ${sessionId} ${problem} at records ${row.fromSeq}-${row.toSeq}; replaying from the facts`,
        );
        break run;
      }
      next = row.toSeq + 1;
      batch.push(row.lines);
      size += row.lines.length;
      if (size < LINES_PER_SEND) continue;
      const lines = batch;
      batch = [];
      size = 0;
      await send(lines);
    }
  }
  if (batch.length > 0) await send(batch);
  return next - 1;
}

/** Why a row may not be written to the client, or undefined when it may: only this user's sealed rows may. */
function rowProblem(row: ReplayCachePageRow, sessionId: string, seal: ReplaySeal | undefined): string | undefined {
  const verdict = seal?.verdict(sessionId, row) ?? "unsealed";
  if (verdict === "sealed") return undefined;
  return verdict === "broken" ? "fails its seal" : "is not sealed by this user's key";
}
