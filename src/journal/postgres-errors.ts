/**
 * PostgreSQL's failures as JournalErrors that say what happened to which session: the server
 * cannot be reached (naming host and port, never the password), another writer appended first or
 * holds the session (naming its host), or the layout is not one this verbatim knows.
 */
import { JournalError } from "./errors.ts";
import type { LeaseHolder } from "./store.ts";
import { withoutSecret, type PostgresTarget } from "./postgres-url.ts";

/** Today's second-writer error, naming the holder's machine as well as its pid. */
export const heldElsewhere = (sessionId: string, holder?: LeaseHolder) =>
  new JournalError(
    "busy",
    `session ${sessionId} is open for writing in another verbatim process` +
      `${holder ? ` (pid ${holder.pid}${holder.host ? ` on ${holder.host}` : ""})` : ""}; close it there first, or load it read-only`,
    { sessionId, ...(holder ? { pid: holder.pid, ...(holder.host ? { host: holder.host } : {}) } : {}) },
  );

type DriverError = { code?: string; errno?: string; message?: string };

/**
 * Runs `run`, turning the driver's failures into JournalErrors that name the session and the server.
 * A pooled connection whose backend the server ended while it sat idle (a restart, a failover,
 * `pg_terminate_backend`) answers its next statement with 57P0x, and that statement did not run:
 * the transaction it was in never commits. The pool drops that connection, so `run` is tried again,
 * as many times as the pool can hold such connections; a server that is really gone keeps failing
 * and is reported as unreachable.
 */
export async function pgGuard<T>(
  target: PostgresTarget,
  sessionId: string | undefined,
  run: () => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (attempt > MAX_POOL_SIZE || !backendEnded(error)) throw translate(target, sessionId, error);
    }
  }
}

/** The largest pool a store opens: every one of its connections may have been ended at once. */
export const MAX_POOL_SIZE = 8;

/** The server ended this connection's backend (admin shutdown, crash shutdown, cannot connect now). */
const backendEnded = (error: unknown) => ((error ?? {}) as DriverError).errno?.startsWith("57P0") === true;

export function translate(target: PostgresTarget, sessionId: string | undefined, error: unknown): unknown {
  if (error instanceof JournalError) return error;
  const e = (error ?? {}) as DriverError;
  const message = withoutSecret(e.message ?? String(error), target.url);
  const where = sessionId ? `session ${sessionId}: ` : "";
  const details = { ...(sessionId ? { sessionId } : {}), host: target.host, port: target.port };
  const sqlState = e.errno ?? "";
  if (sqlState === "23505" || sqlState === "P0002") {
    // The lease's epoch fences other writers: a writer holding it is out of step when its server lost appends in a crash.
    return new JournalError(
      "stale_write",
      `${where}the record is not the next one in the journal (another writer appended first, or the server lost its latest appends in a crash); nothing was written`,
      details,
    );
  }
  if (sqlState === "P0001")
    return new JournalError("corrupt_database", `${where}${message}; nothing was written`, details);
  const server = `the journal's PostgreSQL server at ${target.where}`;
  if (sqlState === "28P01" || sqlState === "28000") {
    return new JournalError("unreachable", `${server} refused the login (${message})`, details);
  }
  if (sqlState === "3D000")
    return new JournalError("unreachable", `${server} has no database "${target.database}"`, details);
  // Bun's own codes (ERR_POSTGRES_CONNECTION_CLOSED, ..._REFUSED, ..._TIMEOUT, TLS failures), the
  // server shutting down or ending this backend (57P0x), connection exceptions (08xxx).
  // The server refusing new connections (53300 too many; 55000 a database closed to them) is one too.
  const connection =
    (e.code?.startsWith("ERR_POSTGRES") && e.code !== "ERR_POSTGRES_SERVER_ERROR") ||
    sqlState.startsWith("57P0") ||
    sqlState.startsWith("08") ||
    sqlState === "53300" ||
    (sqlState === "55000" && /accepting connections/.test(message));
  if (connection) {
    return new JournalError(
      "unreachable",
      `${where}${server} cannot be reached (${e.code ?? sqlState}: ${message})`,
      details,
    );
  }
  return new JournalError(
    "corrupt_database",
    `${where}${server} failed (${sqlState || e.code || "error"}: ${message})`,
    details,
  );
}
