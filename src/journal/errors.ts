/**
 * Journal failures, each naming the session (and the record, where there is one). The ACP layer
 * turns them into typed protocol errors; nothing here knows about the protocol.
 */
export class JournalError extends Error {
  constructor(
    readonly code:
      | "not_found"
      | "newer_record"
      | "corrupt_record"
      | "missing_record"
      | "busy"
      | "stale_write"
      | "inbox_full"
      | "exists"
      | "corrupt_database"
      | "newer_database"
      | "unreachable"
      | "empty_database"
      | "not_a_journal"
      | "read_only"
      | "write_failed",
    message: string,
    readonly details: { sessionId?: string; seq?: number; [key: string]: unknown } = {},
  ) {
    super(message);
    this.name = "JournalError";
  }
}

export const sessionNotFound = (sessionId: string) =>
  new JournalError("not_found", `session ${sessionId} is not in the journal`, { sessionId });

/** The session is open for writing in another live process (on `host`, when the store knows it). */
export const busy = (sessionId: string, holder?: { pid: number; host?: string }) =>
  new JournalError(
    "busy",
    `session ${sessionId} is open for writing in another verbatim process` +
      `${holder ? ` (pid ${holder.pid}${holder.host ? ` on ${holder.host}` : ""})` : ""}; close it there first, or load it read-only`,
    { sessionId, ...(holder ? { pid: holder.pid, ...(holder.host ? { host: holder.host } : {}) } : {}) },
  );

export const sessionExists = (sessionId: string) =>
  new JournalError("exists", `session ${sessionId} is already in the journal`, { sessionId });
