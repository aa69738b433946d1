/** The controllers' attachments in the PostgreSQL journal (session-attachments.ts), created by the first attach. */
import type { SQL } from "bun";
import { sideTable } from "./postgres-side-table.ts";
import { announcedWrite } from "./postgres-watch.ts";
import {
  ATTACHMENT_TTL_MS,
  attachmentFromBody,
  postgresAttachmentsSql,
  type Attachment,
} from "./session-attachments.ts";

const table = sideTable("verbatim.session_attachments", postgresAttachmentsSql);

/**
 * Writes the attachment's row, or refreshes it (the server's clock). A new row is announced
 * (postgres-watch.ts): the writer watches its inbox from then on; a refresh is not.
 */
export async function keepPgAttachment(sql: SQL, sessionId: string, row: Attachment): Promise<void> {
  await table.ensure(sql);
  await announcedWrite(
    sql,
    sessionId,
    sql`INSERT INTO verbatim.session_attachments (session_id, attachment_id, body)
      VALUES (${sessionId}, ${row.attachmentId}, ${JSON.stringify(row)})
      ON CONFLICT (session_id, attachment_id) DO UPDATE SET body = excluded.body, refreshed_at = now()
      RETURNING (xmax = 0) AS announce`,
  );
}

export async function dropPgAttachment(sql: SQL, sessionId: string, attachmentId: string): Promise<void> {
  if (!(await table.has(sql))) return;
  await announcedWrite(
    sql,
    sessionId,
    sql`DELETE FROM verbatim.session_attachments WHERE session_id = ${sessionId} AND attachment_id = ${attachmentId}
      RETURNING true AS announce`,
  );
}

/** Whether any controller's attachment row of the session was refreshed within ATTACHMENT_TTL_MS (the server's clock). */
export async function anyPgAttachment(sql: SQL, sessionId: string): Promise<boolean> {
  if (!(await table.has(sql))) return false;
  const rows = await sql`
    SELECT 1 FROM verbatim.session_attachments
    WHERE session_id = ${sessionId} AND refreshed_at > now() - make_interval(secs => ${ATTACHMENT_TTL_MS / 1000})
    LIMIT 1`;
  return rows.length > 0;
}

/** The attachment, if its row was refreshed within ATTACHMENT_TTL_MS by the server's clock. */
export async function livePgAttachment(
  sql: SQL,
  sessionId: string,
  attachmentId: string,
): Promise<Attachment | undefined> {
  if (!(await table.has(sql))) return undefined;
  const [row] = (await sql`
    SELECT body FROM verbatim.session_attachments
    WHERE session_id = ${sessionId} AND attachment_id = ${attachmentId}
      AND refreshed_at > now() - make_interval(secs => ${ATTACHMENT_TTL_MS / 1000})`) as { body: string }[];
  return row ? attachmentFromBody(row.body) : undefined;
}

export async function deletePgAttachments(tx: SQL, sessionId: string): Promise<void> {
  if (await table.has(tx)) await tx`DELETE FROM verbatim.session_attachments WHERE session_id = ${sessionId}`;
}
