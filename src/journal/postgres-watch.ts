/**
 * The PostgreSQL journal's watcher (journal-watch.ts): the server's LISTEN/NOTIFY. Every commit a
 * follower or a writer waits for sends a notification on PG_CHANNEL in its own statement
 * (`notifyChange`: an append with the session's last position, a claim, a request to the writer,
 * a controller attached or detached), delivered to every process listening once it commits, on
 * any machine. A process listens on one connection of its own (Bun's `sql.listen`) while anything
 * watches; Bun reconnects it when it drops, and every subscriber is then told to read again (a
 * notification sent meanwhile is lost). A look every PG_SAFETY_MS is the floor under it all: a
 * writer of a version before notifications, or a listen the server refused, is still followed.
 */
import type { SQL } from "bun";
import { log } from "../shared/log.ts";
import {
  type ChangeListener,
  type JournalChange,
  type JournalWatch,
  type WatchOptions,
  Watchers,
} from "./journal-watch.ts";

export const PG_CHANNEL = "verbatim_journal";

/** How often every subscriber looks anyway (one read each), whatever was announced. */
export const PG_SAFETY_MS = 2000;

/** The notification of a change to `sessionId`, as a fragment of the statement that commits it. */
export const notifyChange = (sql: SQL, sessionId: string, kind: JournalChange["kind"], position?: number) =>
  sql`pg_notify(${PG_CHANNEL}, ${`${kind}:${position ?? ""}:${sessionId}`})`;

/**
 * `write` (an INSERT, UPDATE or DELETE of rows beside the facts, RETURNING a boolean `announce`)
 * with the notification of a change to the session's rows when a row it returned says to: one
 * statement, so the notification is sent if and only if the write commits. Resolves with the rows.
 */
export const announcedWrite = (sql: SQL, sessionId: string, write: SQL.Query<unknown>) =>
  sql`WITH written AS (${write})
    SELECT (SELECT ${notifyChange(sql, sessionId, "rows")}::text FROM written WHERE announce LIMIT 1) AS notified,
      (SELECT count(*) FROM written)::int AS count`;

/** The change a notification's payload names, and its session; undefined for a payload of another shape. */
export function changeOf(payload: string): { sessionId: string; change: JournalChange } | undefined {
  const match = /^(facts|rows|any):(\d*):(.+)$/s.exec(payload);
  if (!match) return undefined;
  const [, kind, position, sessionId] = match as unknown as [string, JournalChange["kind"], string, string];
  return { sessionId, change: { kind, ...(position ? { position: Number(position) } : {}) } };
}

export class PostgresWatch implements JournalWatch {
  readonly watchers: Watchers;
  #listening: Promise<{ unlisten(): Promise<void> } | undefined> | undefined;
  #unlistened: Promise<void> = Promise.resolve();

  constructor(private readonly sql: SQL) {
    this.watchers = new Watchers({
      start: () => this.#listen(),
      tick: () => void this.#safety(),
      stop: () => this.#unlisten(),
      tickMs: PG_SAFETY_MS,
    });
  }

  watch(sessionId: string, listener: ChangeListener, options?: WatchOptions): () => void {
    return this.watchers.watch(sessionId, listener, options);
  }

  async close(): Promise<void> {
    this.watchers.close();
    await this.#unlistened;
  }

  #listen(): void {
    const onNotify = (payload: string) => {
      const named = changeOf(payload);
      if (named) this.watchers.emit(named.sessionId, named.change);
    };
    // Initially and after every reconnect: what was sent while not listening is read again, and
    // what was read is checked (a server that restarted may have lost its last commits).
    const onListen = () => this.watchers.emitAll({ kind: "any", missed: true });
    this.#listening = this.sql.listen(PG_CHANNEL, onNotify, onListen).catch((error: unknown) => {
      log.debug("the journal's notifications could not be listened to; looking every few seconds", error);
      return undefined;
    });
  }

  async #safety(): Promise<void> {
    this.watchers.emitAll({ kind: "any" });
    // A listen refused (the server was out of reach) is tried again.
    if (this.#listening && !(await this.#listening) && this.watchers.watched) this.#listen();
  }

  #unlisten(): void {
    const listening = this.#listening;
    this.#listening = undefined;
    const before = this.#unlistened;
    this.#unlistened = (async () => {
      await before;
      await (await listening)?.unlisten().catch(() => undefined);
    })();
  }
}
