/**
 * The answer claims and the session inbox in the SQLite journal (answer-claims.ts,
 * session-inbox.ts): created by a writer when it opens the journal (sqlite-open.ts); a journal no
 * writer of this version opened has neither, and reads of it find nothing. The store calls these
 * inside its error guard.
 */
import type { Database } from "bun:sqlite";
import { claimFromBody, type AnswerClaim } from "./answer-claims.ts";
import { takenRequest, type InboxKind, type InboxRequest } from "./session-inbox.ts";

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

export function sendToWriterIn(db: Database, sessionId: string, request: InboxRequest): void {
  db.run("INSERT INTO session_inbox (session_id, request_id, kind, body) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING", [
    sessionId,
    request.requestId,
    request.kind,
    JSON.stringify(request),
  ]);
}

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
}
