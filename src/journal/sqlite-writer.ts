import type { Database, Statement } from "bun:sqlite";
import { LEASE_OF_SQL } from "./sqlite-reads.ts";
import type { SessionRow } from "./store.ts";
import type { WalCheckpointer } from "./wal-checkpointer.ts";

/**
 * The writing connection and its statements. They come from `db.query`, whose statements
 * `close()` finalizes: a statement from `db.prepare` left unfinalized keeps the connection open
 * after `close()`, and with it the write-ahead log, which the last connection to close folds
 * into the database file.
 */
export class Writer {
  /** Runs `run` in an immediate transaction (the wrapper is built once: appends are hot). */
  readonly transaction: <T>(run: () => T) => T;
  readonly insertSession: Statement;
  readonly insertFact: Statement;
  readonly insertBlob: Statement;
  readonly touch: Statement;
  readonly touchTitle: Statement;
  readonly selectLease: Statement<{ pid: number; start_time: string }, [string]>;
  readonly upsertLease: Statement;
  constructor(
    readonly db: Database,
    readonly checkpoints: WalCheckpointer,
  ) {
    // The log is cut back, and started over when large, from this connection (see wal-checkpointer.ts).
    checkpoints.attach(db);
    const immediate = db.transaction((run: () => unknown) => run()).immediate;
    this.transaction = <T>(run: () => T): T => immediate(run) as T;
    this.insertSession = db.query(
      "INSERT INTO sessions (session_id, cwd, additional_directories, title, created_at, updated_at, parent_session_id) VALUES (?, ?, ?, ?, ?, ?, ?)",
    );
    this.insertFact = db.query("INSERT INTO facts (session_id, seq, kind, v, at, body) VALUES (?, ?, ?, ?, ?, ?)");
    // Content-addressed: a payload already stored for the session is not stored again.
    this.insertBlob = db.query("INSERT OR IGNORE INTO blobs (session_id, sha256, data) VALUES (?, ?, ?)");
    this.touch = db.query("UPDATE sessions SET updated_at = ? WHERE session_id = ?");
    this.touchTitle = db.query("UPDATE sessions SET updated_at = ?, title = ? WHERE session_id = ?");
    this.selectLease = db.query(LEASE_OF_SQL);
    this.upsertLease = db.query(
      "INSERT INTO leases (session_id, pid, start_time) VALUES (?, ?, ?) ON CONFLICT (session_id) DO UPDATE SET pid = excluded.pid, start_time = excluded.start_time",
    );
  }

  /** Inserts the session's row, with where it was forked from when it is a fork (inside the caller's transaction). */
  insertRow(row: SessionRow): void {
    this.insertSession.run(
      row.sessionId,
      row.cwd,
      JSON.stringify(row.additionalDirectories),
      row.title ?? null,
      row.createdAt,
      row.updatedAt,
      row.parentSessionId ?? null,
    );
    if (row.forkOf) {
      this.db.run("UPDATE sessions SET forked_from = ? WHERE session_id = ?", [
        JSON.stringify(row.forkOf),
        row.sessionId,
      ]);
    }
  }
}
