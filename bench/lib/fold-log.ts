/**
 * Folds a SQLite journal's write-ahead log into the database and truncates it, as a last writer's
 * clean close would, waiting for a checkpoint under way (the checkpointer's thread) to finish.
 */
import { Database } from "bun:sqlite";

export function foldLog(path: string): void {
  const db = new Database(path);
  try {
    db.run("PRAGMA busy_timeout = 120000");
    db.query("PRAGMA wal_checkpoint(TRUNCATE)").get();
  } finally {
    db.close();
  }
}
