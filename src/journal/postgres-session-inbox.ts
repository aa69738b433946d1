/** The session inbox's table in the PostgreSQL journal (session-inbox.ts), created by the first request put. */
import type { SQL } from "bun";
import { sideTable } from "./postgres-side-table.ts";
import { postgresInboxSql, takenRequest, type InboxKind, type InboxRequest } from "./session-inbox.ts";

const table = sideTable("verbatim.session_inbox", postgresInboxSql);

export async function sendPgToWriter(sql: SQL, sessionId: string, request: InboxRequest): Promise<void> {
  await table.ensure(sql);
  await sql`
    INSERT INTO verbatim.session_inbox (session_id, request_id, kind, body)
    VALUES (${sessionId}, ${request.requestId}, ${request.kind}, ${JSON.stringify(request)})
    ON CONFLICT DO NOTHING`;
}

/** Takes the oldest waiting request of `kinds` (a concurrent taker skips the row this one holds). */
export async function takePgFromInbox(
  sql: SQL,
  sessionId: string,
  kinds: readonly InboxKind[],
): Promise<InboxRequest | undefined> {
  if (!(await table.has(sql))) return undefined;
  const [row] = (await sql`
    UPDATE verbatim.session_inbox SET taken = true
    WHERE ord = (
      SELECT ord FROM verbatim.session_inbox
      WHERE session_id = ${sessionId} AND NOT taken AND kind = ANY(${sql.array([...kinds], "text")})
      ORDER BY ord LIMIT 1 FOR UPDATE SKIP LOCKED)
    RETURNING body`) as { body: string }[];
  return row ? takenRequest(sessionId, row.body) : undefined;
}

export async function deletePgInbox(tx: SQL, sessionId: string): Promise<void> {
  if (await table.has(tx)) await tx`DELETE FROM verbatim.session_inbox WHERE session_id = ${sessionId}`;
}
