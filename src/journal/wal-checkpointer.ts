/**
 * When and where the journal's write-ahead log is checkpointed (copied back into the database
 * file, both files synced).
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
 */
import { log } from "../log.ts";

/** How long the writer must have been idle for a checkpoint. */
export const IDLE_MS = 200;
/** Pages committed since the last checkpoint for an idle checkpoint to be worth it. */
export const IDLE_PAGES = 100;
/** Pages committed without an idle moment after which a checkpoint runs anyway (about 40 MB). */
export const BUSY_PAGES = 10_000;
/**
 * The size the log file is cut back to when it restarts. A checkpoint beside a stream that never
 * pauses cannot catch up with it (a passive checkpoint copies what was committed when it began),
 * so the log grows until the writer is idle; once checkpointed, the next commit restarts it, and
 * SQLite truncates the file to this.
 */
export const WAL_SIZE_LIMIT = 32 * 1024 * 1024;

/**
 * About how many pages a commit of `bytes` bytes of records adds to the WAL (measured: 2.4 for
 * one 100-byte fact, 6 for 16 streamed chunks of 1.5 KB; each commit also rewrites the index
 * and the session's row).
 */
export const pagesOf = (bytes: number): number => 2 + bytes / 400;

export type CheckpointPolicy = { idleMs: number; idlePages: number; busyPages: number };

const DEFAULT_POLICY: CheckpointPolicy = { idleMs: IDLE_MS, idlePages: IDLE_PAGES, busyPages: BUSY_PAGES };

export class WalCheckpointer {
  #pages = 0;
  #lastCommit = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #asked = false;

  private readonly policy: CheckpointPolicy;

  /** `policy`: what differs from the default (tests set their own thresholds). */
  constructor(
    private readonly path: string,
    policy: Partial<CheckpointPolicy> = {},
  ) {
    this.policy = { ...DEFAULT_POLICY, ...policy };
  }

  /** Notes a commit of about `bytes` bytes of records. */
  committed(bytes: number): void {
    this.#pages += pagesOf(bytes);
    this.#lastCommit = performance.now();
    if (this.#pages >= this.policy.busyPages) this.#checkpoint();
    else if (this.#pages >= this.policy.idlePages && !this.#timer) this.#arm(this.policy.idleMs);
  }

  /** Stops checkpointing this journal (its worker connection closes once any checkpoint under way ends). */
  close(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#asked) worker().postMessage({ close: this.path });
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
