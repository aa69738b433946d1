/** The session inbox's table in the PostgreSQL journal (session-inbox.ts), created by the first request put. */
import type { SQL } from "bun";
import { sideTable } from "./postgres-side-table.ts";
import { announcedWrite } from "./postgres-watch.ts";
import {
  INBOX_LIMIT,
  inboxFull,
  postgresInboxSql,
  takenRequest,
  type InboxKind,
  type InboxRequest,
} from "./session-inbox.ts";

const table = sideTable("verbatim.session_inbox", postgresInboxSql);

/** Puts the request unless the session has INBOX_LIMIT waiting already (then rejects with `inbox_full`). */
export async function sendPgToWriter(sql: SQL, sessionId: string, request: InboxRequest): Promise<void> {
  await table.ensure(sql);
  const [inserted] = (await announcedWrite(
    sql,
    sessionId,
    sql`INSERT INTO verbatim.session_inbox (session_id, request_id, kind, body)
      SELECT ${sessionId}, ${request.requestId}, ${request.kind}, ${JSON.stringify(request)}
      WHERE (SELECT count(*) FROM verbatim.session_inbox WHERE session_id = ${sessionId} AND NOT taken) < ${INBOX_LIMIT}
      ON CONFLICT DO NOTHING
      RETURNING true AS announce`,
  )) as { count: number }[];
  if (inserted?.count === 0 && !(await pgRequestPut(sql, sessionId, request.requestId))) throw inboxFull(sessionId);
}

/** Whether the request is in the inbox already (put again: nothing to refuse). */
async function pgRequestPut(sql: SQL, sessionId: string, requestId: string): Promise<boolean> {
  const [row] = (await sql`
    SELECT 1 AS put FROM verbatim.session_inbox WHERE session_id = ${sessionId} AND request_id = ${requestId}`) as {
    put: number;
  }[];
  return row !== undefined;
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
