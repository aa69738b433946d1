/**
 * The SQLite journal's watcher (journal-watch.ts): one `PRAGMA data_version` read every
 * SQLITE_WATCH_MS per process while anything watches in the foreground (a follower, a question's
 * claims), every SQLITE_BACKGROUND_WATCH_MS while only open sessions' inboxes do. The number
 * changes when another connection (another process, or this one's other connection) commits to
 * the database: a read of the WAL's shared index, no table read, so a process watching many
 * sessions pays one read a tick for them all. It does not say which session changed: every subscriber is told, and reads. This process's
 * own commits on the connection read are reported by the store itself (`Watchers.emit`).
 */
import type { Database } from "bun:sqlite";
import { type ChangeListener, type WatchOptions, type JournalWatch, Watchers } from "./journal-watch.ts";

/**
 * How often the database's change counter is read: well inside the latency a follower is held to
 * (an update seen 50 ms after its commit).
 */
export const SQLITE_WATCH_MS = 15;

/**
 * How often it is read while only background watches are there (an open session's inbox, idle in
 * its writer's process): as often as the inbox would be read at most (session/inbox-server.ts).
 */
export const SQLITE_BACKGROUND_WATCH_MS = 100;

export class SqliteWatch implements JournalWatch {
  readonly watchers: Watchers;
  #seen: { db: Database | undefined; version: number | undefined } = { db: undefined, version: undefined };

  /** `reader`: the connection reads go through now (undefined while there is no journal file). */
  constructor(private readonly reader: () => Database | undefined) {
    this.watchers = new Watchers({
      // The first look is taken now: a commit between a subscriber's first read and the first tick is seen.
      start: () => this.#look(),
      tick: () => this.#tick(),
      stop: () => undefined,
      tickMs: SQLITE_WATCH_MS,
      backgroundTickMs: SQLITE_BACKGROUND_WATCH_MS,
    });
  }

  watch(sessionId: string, listener: ChangeListener, options?: WatchOptions): () => void {
    return this.watchers.watch(sessionId, listener, options);
  }

  /** Stops the ticks for good (the store closes). */
  close(): void {
    this.watchers.close();
  }

  #tick(): void {
    if (this.#look()) this.watchers.emitAll({ kind: "any" });
  }

  /** Reads the counter; true when it (or the connection it is read on) changed since the last look. */
  #look(): boolean {
    try {
      const db = this.reader();
      const version = db?.query<{ data_version: number }, []>("PRAGMA data_version").get()?.data_version;
      const changed = db !== this.#seen.db || version !== this.#seen.version;
      this.#seen = { db, version };
      return changed;
    } catch {
      // A journal that cannot be read now is the readers' to report; they are told to look.
      return true;
    }
  }
}
