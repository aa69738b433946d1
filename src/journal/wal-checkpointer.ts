/**
 * When and where the journal's write-ahead log is checkpointed (copied back into the database
 * file, both files synced), and how it is kept within its bound.
 *
 * By default SQLite checkpoints on the connection that commits, once the WAL holds 1,000 pages.
 * On the benchmark machine that took about 10 ms every couple of thousand streamed chunks, and
 * the chunks waiting for that commit waited as long; a checkpoint run beside the stream on
 * another thread still slowed it (two cores, and the disk). So the writer turns SQLite's policy
 * off (`wal_autocheckpoint = 0`) and tells this checkpointer what it commits, and a checkpoint
 * runs once the writer has been idle for `IDLE_MS` with at least `IDLE_PAGES` committed since the
 * last one, or, in a stream that never pauses, once `BUSY_PAGES` were committed. It runs on a
 * worker thread with a connection of its own (a passive checkpoint, which never blocks the
 * writer), so an idle moment that ends (a prompt arrives) does not wait for it either. One worker
 * serves the process; it starts with the first checkpoint, so a process that writes little never
 * starts it, and one that only reads never has a checkpointer.
 *
 * A checkpoint beside a writer that never pauses cannot shrink the log, though: the log starts
 * over from its beginning only when a write begins after a checkpoint that copied every page in
 * it, and the writer commits more while the worker copies. Turns run back to back (a fast local
 * model, a CI run) never leave the writer idle for `IDLE_MS`, so the log grew without bound (500
 * turns left 115 MB beside a 5 MB database, and every later process read through it). So the log's
 * size is looked at now and then (a `stat` of the file: the log only grows until it starts over),
 * and at each turn's end; once it is large the writer itself finishes the checkpoint between two
 * of its transactions, so that its next write starts the log over:
 *
 * - at a turn's end, when the log holds a quarter of its bound: the turn's answer goes out first,
 *   and what is left to copy is what the worker has not copied yet;
 * - at once, in the middle of a turn, when it holds half its bound (a single turn that streams
 *   on, or turn ends where the checkpoint could not run).
 *
 * SQLite cuts the file back to `journal_size_limit` (a sixteenth of the bound) when the log
 * starts over, so the file's size is the log's. The bound (`WAL_BOUND`, 64 MiB, or
 * VERBATIM_WAL_BOUND_MB) holds through any stream of turns, unless one transaction is larger, or
 * another process's read pins the log for the whole time (a checkpoint cannot copy past a reader).
 *
 * When the journal closes (the client closed stdin, SIGTERM, SIGHUP), the log is folded into the
 * database and truncated to nothing (`wal_checkpoint(TRUNCATE)`), so the next process reads the
 * database alone, even when other processes have the journal open (SQLite folds and deletes the
 * log by itself only when the last connection closes). A checkpoint that cannot complete (another
 * process is reading or checkpointing) is given up after `EXIT_WAIT_MS`: the exit does not wait
 * for it any longer, nor fail; the next writer folds the log.
 */
import type { Database } from "bun:sqlite";
import { statSync } from "node:fs";
import { log } from "../shared/log.ts";

/** How long the writer must have been idle for a checkpoint. */
export const IDLE_MS = 200;
/** Pages committed since the last checkpoint for an idle checkpoint to be worth it. */
export const IDLE_PAGES = 100;
/** Pages committed without an idle moment after which a checkpoint runs anyway (about 40 MB). */
export const BUSY_PAGES = 10_000;
/** The largest the log grows to (unless VERBATIM_WAL_BOUND_MB says otherwise). */
export const WAL_BOUND = 64 * 1024 * 1024;
/** The size the log file is cut back to when it starts over, with the default bound. */
export const WAL_SIZE_LIMIT = WAL_BOUND / 16;
/** At most how long closing the journal waits for the log to be folded and truncated. */
export const EXIT_WAIT_MS = 250;

/** The log's bound in bytes: VERBATIM_WAL_BOUND_MB (a whole number of MiB, at least 1), else `WAL_BOUND`. */
export function walBound(env: Record<string, string | undefined> = process.env): number {
  const mb = Number(env.VERBATIM_WAL_BOUND_MB);
  return Number.isInteger(mb) && mb >= 1 ? mb * 1024 * 1024 : WAL_BOUND;
}

/**
 * About how many pages a commit of `bytes` bytes of records adds to the WAL (measured: 2.4 for
 * one 100-byte fact, 6 for 16 streamed chunks of 1.5 KB; each commit also rewrites the index
 * and the session's row).
 */
export const pagesOf = (bytes: number): number => 2 + bytes / 400;

/** `boundBytes`: the largest the log may grow to. */
export type CheckpointPolicy = { idleMs: number; idlePages: number; busyPages: number; boundBytes: number };

/** SQLite's page size for a verbatim journal (the default). */
const PAGE_BYTES = 4096;

type CheckpointResult = { busy: number; log: number; checkpointed: number };

export class WalCheckpointer {
  #pages = 0;
  #lastCommit = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #asked = false;
  /** The writing connection, once attached: the checkpoints that must complete run on it. */
  #db: Database | undefined;
  /** Pages (estimated) committed since the log's size was last looked at. */
  #unlooked = 0;
  /** A turn ended with the log large and the checkpoint then could not complete: try again at the next look. */
  #owed = false;
  #folding: ReturnType<typeof setTimeout> | undefined;

  private readonly policy: CheckpointPolicy;

  /** `policy`: what differs from the default (tests set their own thresholds). */
  constructor(
    private readonly path: string,
    policy: Partial<CheckpointPolicy> = {},
  ) {
    this.policy = { idleMs: IDLE_MS, idlePages: IDLE_PAGES, busyPages: BUSY_PAGES, boundBytes: walBound(), ...policy };
  }

  /** The writing connection: the log restarts from it, and is cut back to a sixteenth of the bound when it does. */
  attach(db: Database): void {
    this.#db = db;
    db.run(`PRAGMA journal_size_limit = ${Math.floor(this.policy.boundBytes / 16)}`);
  }

  /** Notes a commit of about `bytes` bytes of records; `endsTurn`: it holds a turn's end. */
  committed(bytes: number, endsTurn = false): void {
    const pages = pagesOf(bytes);
    this.#pages += pages;
    this.#unlooked += pages;
    this.#lastCommit = performance.now();
    if (this.#pages >= this.policy.busyPages) this.#checkpoint();
    else if (this.#pages >= this.policy.idlePages && !this.#timer) this.#arm(this.policy.idleMs);
    // A look every sixty-fourth of the bound (estimated: the estimate runs low, so there is room).
    if (endsTurn || this.#unlooked * PAGE_BYTES >= this.policy.boundBytes / 64) this.#look(endsTurn);
  }

  /**
   * Stops checkpointing this journal, and folds the log into the database and truncates it (given
   * up after `EXIT_WAIT_MS`). Call before the writing connection closes; the worker's connection
   * closes once any checkpoint under way ends.
   */
  close(): void {
    if (this.#timer) clearTimeout(this.#timer);
    if (this.#folding) clearTimeout(this.#folding);
    this.#timer = undefined;
    this.#folding = undefined;
    if (this.#asked) worker().postMessage({ close: this.path });
    const db = this.#db;
    this.#db = undefined;
    if (db) truncate(db, this.path);
  }

  #look(endsTurn: boolean): void {
    this.#unlooked = 0;
    if (!this.#db) return;
    const size = statSync(`${this.path}-wal`, { throwIfNoEntry: false })?.size ?? 0;
    const bound = this.policy.boundBytes;
    if (size >= bound / 2) this.#fold();
    else if (size >= bound / 4 && (endsTurn || this.#owed)) {
      // After the turn's answer and last updates are written out (they wait for no checkpoint).
      this.#folding ??= setTimeout(() => {
        this.#folding = undefined;
        this.#fold();
      }, 0);
    }
  }

  /** A passive checkpoint on the writing connection, between its transactions: its next write starts the log over. */
  #fold(): void {
    const db = this.#db;
    if (!db) return;
    let result: CheckpointResult | null = null;
    try {
      result = db.query<CheckpointResult, []>("PRAGMA wal_checkpoint(PASSIVE)").get();
    } catch (error) {
      // A read of this connection is under way ("database table is locked"): the next look tries again.
      log.debug("a WAL checkpoint could not run yet", error);
    }
    // Busy: the worker is checkpointing; short: another process reads an older snapshot.
    this.#owed = result?.busy !== 0 || result.checkpointed !== result.log;
    if (!this.#owed) this.#pages = 0;
  }

  #arm(ms: number): void {
    this.#timer = setTimeout(this.#whenIdle, ms);
    this.#timer.unref();
  }

  readonly #whenIdle = (): void => {
    this.#timer = undefined;
    if (this.#pages < this.policy.idlePages) return;
    const idle = performance.now() - this.#lastCommit;
    if (idle >= this.policy.idleMs) this.#checkpoint();
    else this.#arm(this.policy.idleMs - idle);
  };

  #checkpoint(): void {
    this.#pages = 0;
    this.#asked = true;
    worker().postMessage({ checkpoint: this.path });
  }
}

/**
 * Folds the log into the database and truncates it, on the writing connection about to close.
 * Readers of other processes are waited for briefly (a short busy timeout); a checkpoint under
 * way elsewhere (the worker's, another process's) is retried until `EXIT_WAIT_MS` have passed.
 */
function truncate(db: Database, path: string): void {
  const deadline = performance.now() + EXIT_WAIT_MS;
  try {
    db.run(`PRAGMA busy_timeout = ${Math.floor(EXIT_WAIT_MS / 5)}`);
    for (;;) {
      const result = db.query<CheckpointResult, []>("PRAGMA wal_checkpoint(TRUNCATE)").get();
      if (!result || result.busy === 0) return;
      if (performance.now() >= deadline) break;
      Bun.sleepSync(5);
    }
    log.debug(`the write-ahead log of ${path} could not be truncated at exit: the next writer folds it`);
  } catch (error) {
    log.debug(`the write-ahead log of ${path} could not be truncated at exit`, error);
  }
}

/**
 * The worker: one connection per journal, opened on its first checkpoint; a passive checkpoint
 * per request. Kept as text so that it ships inside the built bundle as is (it needs nothing
 * but bun:sqlite).
 */
const WORKER_SOURCE = `
import { Database } from "bun:sqlite";
const open = new Map();
self.onmessage = ({ data }) => {
  try {
    if (data.close !== undefined) {
      open.get(data.close)?.close();
      open.delete(data.close);
      return;
    }
    let db = open.get(data.checkpoint);
    if (!db) {
      db = new Database(data.checkpoint, { readwrite: true });
      open.set(data.checkpoint, db);
    }
    db.query("PRAGMA wal_checkpoint(PASSIVE)").get();
  } catch (error) {
    postMessage(String(error));
  }
};
`;

let shared: Worker | undefined;

function worker(): Worker {
  if (shared) return shared;
  shared = new Worker(URL.createObjectURL(new Blob([WORKER_SOURCE], { type: "application/javascript" })));
  // A checkpoint left undone is the next one's (or the last connection's, at close): never a reason to stay up.
  shared.unref();
  shared.onmessage = (event: MessageEvent<string>) => log.debug("a WAL checkpoint failed", event.data);
  return shared;
}
