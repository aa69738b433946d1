/**
 * Following a session another process is writing, from the journal alone: never the writer's
 * memory, and nothing the writer waits for. A follower looks at the session's last record number
 * when the journal's watcher says something was committed (journal-watch.ts: one watcher per
 * process, whatever it follows) and reads what was committed past the last record it has, in
 * journal order. Works the same on both stores, on this machine or another sharing the journal.
 */
import type { StoredFact } from "./facts/index.ts";
import { sleep } from "../shared/sleep.ts";
import { SessionChanges } from "./journal-watch.ts";
import type { JournalStore } from "./store.ts";

/**
 * The least time between two looks of a follower: a writer streaming fast is then read in
 * batches, not chased one commit at a time (which would take the CPU the writer and the other
 * followers need), well inside the latency targets (an update seen 50 ms after its commit on
 * SQLite, 100 ms on PostgreSQL).
 */
export const FOLLOW_INTERVAL_MS = 15;

export type FollowOptions = {
  /** Ends the following (the generator returns). */
  signal: AbortSignal;
  /** The least milliseconds between two looks. */
  intervalMs: number;
};

/** How many of the records a follower has it remembers the look of (a crash loses only the last appends). */
const WINDOW = 4096;

const print = (record: StoredFact) => `${record.at}|${record.fact.kind}`;

/**
 * Where a follower is: the last record it has, and the look (time and kind) of the last ones it
 * has, to notice a journal that lost its last appends after they were followed (a PostgreSQL
 * server's crash, with asynchronous commit: the writer then goes on from what the journal holds,
 * writing new records under the lost ones' numbers).
 */
export class FollowCursor {
  readonly #prints = new Map<number, string>();

  constructor(public last = 0) {}

  /** Notes a record the follower now has (records come in journal order). */
  took(record: StoredFact): void {
    this.#prints.set(record.seq, print(record));
    this.last = record.seq;
    if (this.#prints.size > WINDOW) this.#prints.delete(this.#prints.keys().next().value as number);
  }

  /** Whether the journal's `record` is the one the follower has under its number (undefined: not remembered). */
  holds(record: StoredFact): boolean | undefined {
    const seen = this.#prints.get(record.seq);
    return seen === undefined ? undefined : seen === print(record);
  }

  /** The first record remembered, where a search for the first lost one starts. */
  get remembered(): number | undefined {
    return this.#prints.keys().next().value;
  }

  /** Goes back to `seq`: the records after it were lost. */
  backTo(seq: number): void {
    for (const known of [...this.#prints.keys()]) if (known > seq) this.#prints.delete(known);
    this.last = seq;
  }
}

/**
 * The records of `sessionId` after the cursor's last, page by page, as they are committed, until
 * `signal` aborts; the cursor moves with each record yielded. When the journal no longer holds
 * the records the follower has (it lost its last appends), the follower goes on from the last one
 * it still holds, as the writer does (and as the writer's own client does, keeping what it was
 * shown); each start, and each wake that says changes may have been missed (a reconnect), looks
 * once at the last record it has, found or not past the journal's end.
 * Never writes to the journal; throws what the store throws (a session deleted meanwhile
 * is `session_not_found`).
 */
export async function* followRecords(
  store: Pick<JournalStore, "lastSeq" | "readPages" | "watch">,
  sessionId: string,
  cursor: FollowCursor,
  options: FollowOptions,
): AsyncGenerator<readonly StoredFact[]> {
  using changes = new SessionChanges(store, sessionId);
  // A following that starts again (after the journal could not be reached) looks at the last
  // record it has even when the journal's end is that record's number: a crash may have lost
  // records the writer has since written again up to that very number.
  let verify = cursor.last > 0 && cursor.remembered !== undefined;
  // After the cursor went back (records lost), the journal is read again at once, not at the next commit.
  let again = false;
  while (!options.signal.aborted) {
    // A reconnect may follow a server's restart that lost records the writer has since written
    // again: the last record the follower has is looked at even when the journal ends at it.
    if (!again && (await changes.next(options.signal, undefined, "facts")).missed)
      verify = cursor.last > 0 && cursor.remembered !== undefined;
    again = false;
    if (options.signal.aborted) return;
    const looked = performance.now();
    const end = await store.lastSeq(sessionId);
    if (end < cursor.last) {
      await findLost(store, sessionId, cursor);
      again = true;
    } else if (end > cursor.last || verify) {
      // The read starts at the last record the follower has, to check it is still the journal's.
      const check = cursor.last > 0 && cursor.remembered !== undefined;
      verify = false;
      let lost = false;
      for await (const page of store.readPages(sessionId, check ? cursor.last : cursor.last + 1)) {
        const fresh = page.filter((record) => record.seq > cursor.last);
        if (page.some((record) => record.seq <= cursor.last && cursor.holds(record) === false)) {
          lost = true;
          break;
        }
        if (fresh.length === 0) continue;
        for (const record of fresh) cursor.took(record);
        yield fresh;
        if (options.signal.aborted) return;
      }
      if (lost) {
        await findLost(store, sessionId, cursor);
        again = true;
        continue;
      }
    }
    // Also after records were found: a writer streaming fast is then read in batches.
    const rest = options.intervalMs - (performance.now() - looked);
    if (rest > 0) await sleep(rest, options.signal);
  }
}

/** Moves the cursor back to the last record the journal still holds as the follower has it. */
async function findLost(
  store: Pick<JournalStore, "readPages">,
  sessionId: string,
  cursor: FollowCursor,
): Promise<void> {
  const from = cursor.remembered ?? cursor.last + 1;
  let kept = from - 1;
  for await (const page of store.readPages(sessionId, from)) {
    for (const record of page) {
      if (record.seq > cursor.last || cursor.holds(record) === false) {
        cursor.backTo(kept);
        return;
      }
      kept = record.seq;
    }
  }
  cursor.backTo(kept);
}
