/**
 * Following a session another process is writing, from the journal alone: never the writer's
 * memory, and nothing the writer waits for. A follower looks at the session's last record number
 * now and then (one indexed read: on SQLite a read of the WAL's index beside the writer, on
 * PostgreSQL one round trip) and reads what was committed past the last record it has, in
 * journal order. Works the same on both stores, on this machine or another sharing the journal.
 */
import type { StoredFact } from "./facts/index.ts";
import { sleep } from "../shared/sleep.ts";
import type { JournalStore } from "./store.ts";

/**
 * How often a follower looks for new records when it found none: well inside the latency targets
 * (an update seen 50 ms after its commit on SQLite, 100 ms on PostgreSQL), at a cost of one
 * indexed read (or round trip) a look.
 */
export const FOLLOW_INTERVAL_MS = 15;

export type FollowOptions = {
  /** Ends the following (the generator returns). */
  signal: AbortSignal;
  /** Milliseconds between looks when nothing new was found. */
  intervalMs: number;
};

/**
 * The records of `sessionId` after `afterSeq`, page by page, as they are committed, until
 * `signal` aborts. Never writes to the journal; throws what the store throws (a session deleted
 * meanwhile is `session_not_found`).
 */
export async function* followRecords(
  store: Pick<JournalStore, "lastSeq" | "readPages">,
  sessionId: string,
  afterSeq: number,
  options: FollowOptions,
): AsyncGenerator<readonly StoredFact[]> {
  let last = afterSeq;
  while (!options.signal.aborted) {
    if ((await store.lastSeq(sessionId)) > last) {
      for await (const page of store.readPages(sessionId, last + 1)) {
        if (page.length === 0) continue;
        last = (page[page.length - 1] as StoredFact).seq;
        yield page;
        if (options.signal.aborted) return;
      }
    }
    // Also after records were found: a writer streaming fast is then read in batches, not chased
    // one commit at a time (which would take the CPU the writer and the other followers need).
    await sleep(options.intervalMs, options.signal);
  }
}
