/**
 * SQLite's failures as JournalErrors that say what happened to which session: another writer
 * appended first, the journal is locked or held, or the database is damaged.
 */
import { JournalError } from "./errors.ts";

/** Turns SQLite failures into JournalErrors that name the session. */
export function guard<T>(sessionId: string | undefined, run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw translate(sessionId, error);
  }
}

export function* guardIter<T>(sessionId: string, rows: Iterable<T>): Generator<T> {
  const it = rows[Symbol.iterator]();
  for (;;) {
    let next: IteratorResult<T>;
    try {
      next = it.next();
    } catch (error) {
      throw translate(sessionId, error);
    }
    if (next.done) return;
    yield next.value;
  }
}

function translate(sessionId: string | undefined, error: unknown): unknown {
  if (error instanceof JournalError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: string }).code ?? "";
  const where = sessionId ? `session ${sessionId}: ` : "";
  const details = sessionId ? { sessionId } : {};
  if (message.includes("out-of-sequence") || code === "SQLITE_CONSTRAINT_PRIMARYKEY") {
    return new JournalError("stale_write", `${where}another writer appended first; nothing was written`, details);
  }
  if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) {
    return new JournalError("busy", `${where}the journal is locked by another process`, details);
  }
  if (code.startsWith("SQLITE_FULL") || code.startsWith("SQLITE_IOERR")) {
    return new JournalError(
      "write_failed",
      `${where}the journal file could not be written or read (${message}); nothing was written`,
      details,
    );
  }
  if (code.startsWith("SQLITE_READONLY")) {
    return new JournalError("read_only", `${where}the journal is read-only (${message}); nothing was written`, details);
  }
  if (
    code.startsWith("SQLITE_NOTADB") ||
    code.startsWith("SQLITE_CORRUPT") ||
    /not a database|malformed/.test(message)
  ) {
    return new JournalError(
      "corrupt_database",
      `${where}the journal database is damaged (${message}); nothing was written`,
      details,
    );
  }
  return error;
}
