/**
 * The answer claims, the session inbox and the controllers' attachments in the SQLite journal
 * (answer-claims.ts, session-inbox.ts, session-attachments.ts): created by a writer when it opens the journal (sqlite-open.ts); a journal no
 * writer of this version opened has neither, and reads of it find nothing. The store calls these
 * inside its error guard.
 */
import type { Database } from "bun:sqlite";
import { claimFromBody, type AnswerClaim } from "./answer-claims.ts";
import { INBOX_LIMIT, inboxFull, takenRequest, type InboxKind, type InboxRequest } from "./session-inbox.ts";
import { ATTACHMENT_TTL_MS, attachmentFromBody, type Attachment } from "./session-attachments.ts";

/** The claim that holds for a question, if any. */
export function claimOf(db: Database, sessionId: string, requestId: string): AnswerClaim | undefined {
  const table = db
    .query<{ n: number }, []>("SELECT COUNT(*) AS n FROM sqlite_master WHERE name = 'answer_claims'")
    .get();
  if (!table?.n) return undefined;
  const row = db
    .query<{ body: string }, [string, string]>("SELECT body FROM answer_claims WHERE session_id = ? AND request_id = ?")
    .get(sessionId, requestId);
  return row ? claimFromBody(row.body) : undefined;
}

/** Inserts the claim unless one holds already, in one transaction; returns the claim that holds. */
export function claimAnswerIn(db: Database, sessionId: string, claim: AnswerClaim): AnswerClaim {
  return db
    .transaction(() => {
      db.run("INSERT INTO answer_claims (session_id, request_id, body) VALUES (?, ?, ?) ON CONFLICT DO NOTHING", [
        sessionId,
        claim.requestId,
        JSON.stringify(claim),
      ]);
      return claimOf(db, sessionId, claim.requestId) ?? claim;
    })
    .immediate();
}

/** Puts the request unless the session has INBOX_LIMIT waiting already (then throws `inbox_full`). */
export function sendToWriterIn(db: Database, sessionId: string, request: InboxRequest): void {
  db.transaction(() => {
    const waiting = db
      .query<{ n: number }, [string]>("SELECT COUNT(*) AS n FROM session_inbox WHERE session_id = ? AND taken = 0")
      .get(sessionId);
    if ((waiting?.n ?? 0) >= INBOX_LIMIT) throw inboxFull(sessionId);
    db.run(
      "INSERT INTO session_inbox (session_id, request_id, kind, body) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
      [sessionId, request.requestId, request.kind, JSON.stringify(request)],
    );
  }).immediate();
}

/** Writes the attachment's row, or refreshes it (this machine's clock: the journal is this machine's). */
export function keepAttachmentIn(db: Database, sessionId: string, row: Attachment): void {
  db.run(
    "INSERT INTO session_attachments (session_id, attachment_id, body, refreshed_at) VALUES (?, ?, ?, ?) ON CONFLICT (session_id, attachment_id) DO UPDATE SET body = excluded.body, refreshed_at = excluded.refreshed_at",
    [sessionId, row.attachmentId, JSON.stringify(row), Date.now()],
  );
}

export function dropAttachmentIn(db: Database, sessionId: string, attachmentId: string): void {
  if (!hasTable(db, "session_attachments")) return;
  db.run("DELETE FROM session_attachments WHERE session_id = ? AND attachment_id = ?", [sessionId, attachmentId]);
}

/** The attachment, if its row was refreshed within ATTACHMENT_TTL_MS. */
export function liveAttachmentIn(db: Database, sessionId: string, attachmentId: string): Attachment | undefined {
  if (!hasTable(db, "session_attachments")) return undefined;
  const row = db
    .query<{ body: string }, [string, string, number]>(
      "SELECT body FROM session_attachments WHERE session_id = ? AND attachment_id = ? AND refreshed_at > ?",
    )
    .get(sessionId, attachmentId, Date.now() - ATTACHMENT_TTL_MS);
  return row ? attachmentFromBody(row.body) : undefined;
}

/** Whether any controller's attachment row of the session was refreshed within ATTACHMENT_TTL_MS. */
export function anyAttachmentIn(db: Database, sessionId: string): boolean {
  if (!hasTable(db, "session_attachments")) return false;
  return (
    db
      .query<{ one: number }, [string, number]>(
        "SELECT 1 AS one FROM session_attachments WHERE session_id = ? AND refreshed_at > ? LIMIT 1",
      )
      .get(sessionId, Date.now() - ATTACHMENT_TTL_MS) !== null
  );
}

const hasTable = (db: Database, name: string): boolean =>
  (db.query<{ n: number }, [string]>("SELECT COUNT(*) AS n FROM sqlite_master WHERE name = ?").get(name)?.n ?? 0) > 0;

/** Takes the oldest waiting request of `kinds`, marking it taken in the same statement. */
export function takeFromInboxIn(
  db: Database,
  sessionId: string,
  kinds: readonly InboxKind[],
): InboxRequest | undefined {
  const marks = kinds.map(() => "?").join(", ");
  const waiting = `SELECT rowid FROM session_inbox WHERE session_id = ? AND taken = 0 AND kind IN (${marks}) ORDER BY rowid LIMIT 1`;
  // A look first: an empty inbox (the common case) costs a read, not a write transaction.
  if (!db.query<{ rowid: number }, string[]>(waiting).get(sessionId, ...kinds)) return undefined;
  const row = db
    .query<{ body: string }, string[]>(`UPDATE session_inbox SET taken = 1 WHERE rowid = (${waiting}) RETURNING body`)
    .get(sessionId, ...kinds);
  return row ? takenRequest(sessionId, row.body) : undefined;
}

/** Deletes a session's claims and requests (with the session). */
export function deleteSideRows(db: Database, sessionId: string): void {
  db.run("DELETE FROM answer_claims WHERE session_id = ?", [sessionId]);
  db.run("DELETE FROM session_inbox WHERE session_id = ?", [sessionId]);
  if (hasTable(db, "session_attachments")) db.run("DELETE FROM session_attachments WHERE session_id = ?", [sessionId]);
}
