/**
 * Where a follower learns of new records: the one loop that looks at the journal (journal/follow.ts),
 * kept here alone (it waits on the journal's one watcher: journal-watch.ts). A journal it cannot
 * reach (a server restarting, a connection cut) is read again from the last record the cursor
 * has, once it answers.
 */
import { JournalError } from "../../journal/errors.ts";
import type { StoredFact } from "../../journal/facts/index.ts";
import { FOLLOW_INTERVAL_MS, type FollowCursor, followRecords } from "../../journal/follow.ts";
import type { FollowStore } from "./follow-store.ts";
import { log } from "../../shared/log.ts";
import { sleep } from "../../shared/sleep.ts";

/** How long a follower waits before it reads again a journal it could not reach. */
const RETRY_MS = 250;

/**
 * The records committed after the cursor's last, page by page as they are committed, until
 * `signal` aborts; the cursor moves past each record yielded. Throws the store's errors but
 * `unreachable` (a session deleted meanwhile is `session_not_found`).
 */
export async function* newRecords(
  store: FollowStore,
  sessionId: string,
  cursor: FollowCursor,
  signal: AbortSignal,
): AsyncGenerator<readonly StoredFact[]> {
  while (!signal.aborted) {
    try {
      yield* followRecords(store, sessionId, cursor, { signal, intervalMs: FOLLOW_INTERVAL_MS });
    } catch (error) {
      if (!(error instanceof JournalError) || error.code !== "unreachable") throw error;
      log.debug(`following ${sessionId}: the journal is unreachable; trying again`, error);
      await sleep(RETRY_MS, signal);
    }
  }
}
