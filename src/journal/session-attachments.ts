/**
 * Who is attached to a session as a controller, on any machine sharing the journal: one row per
 * attachment beside the facts (never a fact: it says who is there now, not what happened). The
 * controller's process writes it when it attaches, refreshes it every ATTACHMENT_REFRESH_MS while
 * attached, and deletes it when it detaches; a row not refreshed for ATTACHMENT_TTL_MS (its
 * process killed, its machine gone) has expired. A controller's prompt waiting in the session's
 * inbox names its attachment, and the writer runs it only while that attachment lives
 * (core/session/inbox-server.ts): a controller that is gone has its queued prompts withdrawn.
 * Freshness is judged by the clock of what holds the journal (the server's for PostgreSQL), so
 * machines' clocks need not agree. Rows are deleted with their session.
 */
import { z } from "zod";
import { answeredBy } from "./facts/permissions.ts";
import { keyedSideRows } from "./keyed-side-rows.ts";

/** How often an attached controller refreshes its row. */
export const ATTACHMENT_REFRESH_MS = 2_000;
/** How long a row lives without a refresh: several refreshes missed, so a busy process is not taken for gone. */
export const ATTACHMENT_TTL_MS = 15_000;

export const attachment = z.object({ attachmentId: z.string(), by: answeredBy });
export type Attachment = z.infer<typeof attachment>;

const rows = keyedSideRows(attachment, {
  name: "session_attachments",
  key: "attachment_id",
  more: { sqlite: "refreshed_at INTEGER NOT NULL", postgres: "refreshed_at timestamptz NOT NULL DEFAULT now()" },
});

/** The attachment stored as `body`, if it is one (a row of another shape is none). */
export const attachmentFromBody = rows.fromBody;
export const sqliteAttachmentsSql = rows.sqliteSql;
export const postgresAttachmentsSql = rows.postgresSql;
