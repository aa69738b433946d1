/**
 * One watcher per process and session: what tells the parts of a process that look at a
 * session's journal (a follower, the writer's inbox, an open question's claims) that something
 * was committed there, by any process on any machine sharing the journal, so that they read it
 * then instead of each asking the journal on a timer of its own. The store is the source
 * (sqlite-watch.ts: one `PRAGMA data_version` read per process, the WAL's own counter;
 * postgres-watch.ts: the server's LISTEN/NOTIFY, read again after a reconnect); this module holds
 * the subscribers and hands each the changes it waits for, none lost between two waits.
 */

/**
 * What was committed: the session's facts (up to `position` when the store says it), its rows
 * beside the facts (answer claims, the inbox, attachments), or `any` (the store cannot say which,
 * or a change may have been missed: a reconnect). A change may be reported that concerns nobody
 * (another session's commit, on SQLite): a reader finds nothing new and waits again.
 */
export type JournalChange = {
  kind: "facts" | "rows" | "any";
  position?: number;
  /**
   * Changes may have been missed, and what was read may be gone (PostgreSQL's listen reconnected:
   * the server may have restarted and lost its last commits): a reader checks what it has.
   */
  missed?: boolean;
};
export type ChangeListener = (change: JournalChange) => void;

export type WatchOptions = {
  /** A background watch (the writer's inbox, a question's claims): it does not keep the process running. */
  background?: boolean;
};

export interface JournalWatch {
  /**
   * Calls `listener` after each commit that may concern `sessionId`, and with `any` whenever one
   * may have been missed. Returns the unsubscribe. Never throws; the listener must not either.
   */
  watch(sessionId: string, listener: ChangeListener, options?: WatchOptions): () => void;
}

/**
 * What a store's watcher does while it has subscribers: `start` when the first comes, `tick`
 * every `tickMs` while a subscriber that is not in the background is there (a timer that keeps the
 * process running), every `backgroundTickMs` (when given) while only background ones are (an open
 * session idle in its writer's process: its inbox is not read more often than that anyway, and a
 * process idling in an editor is not woken 67 times a second for it), `stop` when the last goes.
 */
export type ChangeSource = { start(): void; tick(): void; stop(): void; tickMs: number; backgroundTickMs?: number };

/** The subscribers of one store, by session: the source runs while there is one. */
export class Watchers implements JournalWatch {
  readonly #bySession = new Map<string, Set<ChangeListener>>();
  #count = 0;
  #foreground = 0;
  #timer: ReturnType<typeof setInterval> | undefined;
  /** The period the timer runs at (undefined while it does not run). */
  #tickMs: number | undefined;
  #closed = false;

  constructor(private readonly source: ChangeSource) {}

  watch(sessionId: string, listener: ChangeListener, options: WatchOptions = {}): () => void {
    let listeners = this.#bySession.get(sessionId);
    if (!listeners) this.#bySession.set(sessionId, (listeners = new Set()));
    const own = (change: JournalChange) => listener(change);
    listeners.add(own);
    if (this.#count++ === 0 && !this.#closed) this.source.start();
    if (!options.background) this.#foreground++;
    this.#keepAlive();
    let done = false;
    return () => {
      if (done) return;
      done = true;
      listeners.delete(own);
      if (listeners.size === 0) this.#bySession.delete(sessionId);
      if (!options.background) this.#foreground--;
      if (--this.#count === 0) this.#stop();
      else this.#keepAlive();
    };
  }

  /** Stops the source for good (the store closes). */
  close(): void {
    this.#closed = true;
    this.#stop();
  }

  #stop(): void {
    if (this.#timer === undefined) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#tickMs = undefined;
    this.source.stop();
  }

  /** The ticks' timer as the subscribers want it: its period, and whether it keeps the process running. */
  #keepAlive(): void {
    if (this.#count === 0 || this.#closed) return;
    const foreground = this.#foreground > 0;
    const tickMs = foreground ? this.source.tickMs : (this.source.backgroundTickMs ?? this.source.tickMs);
    if (this.#tickMs !== tickMs) {
      clearInterval(this.#timer);
      this.#timer = setInterval(() => this.source.tick(), tickMs);
      this.#tickMs = tickMs;
    }
    if (foreground) this.#timer?.ref();
    else this.#timer?.unref();
  }

  /** Tells the session's subscribers of `change`. */
  emit(sessionId: string, change: JournalChange): void {
    for (const listener of this.#bySession.get(sessionId) ?? []) listener(change);
  }

  /** Tells every subscriber of `change` (the store cannot say which session it concerns). */
  emitAll(change: JournalChange): void {
    for (const listeners of [...this.#bySession.values()]) for (const listener of listeners) listener(change);
  }

  /** Whether anyone watches (the source's ticks are for nobody otherwise). */
  get watched(): boolean {
    return this.#count > 0;
  }
}

/** What came since the last wait: facts, rows beside them, or nothing before the wait's time was up. */
export type Seen = { facts: boolean; rows: boolean; timedOut: boolean; missed: boolean };

/**
 * One subscriber's changes of one session, waited for one at a time: a change that comes while
 * the subscriber reads is kept for its next wait. The first wait resolves at once (the subscriber
 * reads what is there before it waits for more).
 */
export class SessionChanges implements Disposable {
  #facts = true;
  #rows = true;
  #missed = false;
  #wake: (() => void) | undefined;
  readonly #stop: () => void;
  readonly #background: boolean;

  constructor(watch: JournalWatch, sessionId: string, options: WatchOptions = {}) {
    this.#background = options.background === true;
    this.#stop = watch.watch(
      sessionId,
      (change) => {
        if (change.kind !== "rows") this.#facts = true;
        if (change.kind !== "facts") this.#rows = true;
        if (change.missed) this.#missed = true;
        this.#wake?.();
      },
      options,
    );
  }

  /**
   * Resolves with what came since the last call, at once if something did, else at the next
   * change, after `timeoutMs` (when given), or when `signal` aborts. `wants` (default: anything)
   * says which changes end the wait; the others are kept for a later call.
   */
  async next(signal: AbortSignal, timeoutMs?: number, wants: "facts" | "rows" | "any" = "any"): Promise<Seen> {
    const ready = () => (wants === "facts" ? this.#facts : wants === "rows" ? this.#rows : this.#facts || this.#rows);
    let timedOut = false;
    if (!ready() && !signal.aborted) {
      await new Promise<void>((resolve) => {
        const timer = timeoutMs === undefined ? undefined : setTimeout(finish, timeoutMs, true);
        if (this.#background) timer?.unref();
        function finish(late = false) {
          timedOut = late;
          clearTimeout(timer);
          signal.removeEventListener("abort", stop);
          resolve();
        }
        const stop = () => finish();
        signal.addEventListener("abort", stop, { once: true });
        this.#wake = () => {
          if (ready()) finish();
        };
      });
      this.#wake = undefined;
    }
    const seen = { facts: this.#facts, rows: this.#rows, timedOut, missed: this.#missed };
    if (wants !== "rows") this.#facts = false;
    if (wants !== "facts") this.#rows = false;
    this.#missed = false;
    return seen;
  }

  close(): void {
    this.#wake = undefined;
    this.#stop();
  }

  [Symbol.dispose](): void {
    this.close();
  }
}
