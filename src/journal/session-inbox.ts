/**
 * A session's inbox: what controllers attached in other processes ask of its writer (a prompt to
 * run, a cancel of the running turn). A controller puts a request; the writer takes the oldest it
 * can act on, each exactly once (taking marks it, in one statement, across processes and
 * machines). A request is never authority of its own: a prompt is run as any prompt is (the
 * permission gate decides what its calls may do), and the prompt's fact names where it came from.
 * A prompt is run only while the controller that sent it is attached (session-attachments.ts). An
 * inbox holds at most INBOX_LIMIT waiting requests. Requests are kept with the session and
 * deleted with it.
 */
import { z } from "zod";
import { log } from "../shared/log.ts";
import { JournalError } from "./errors.ts";
import { storedBody } from "./stored-body.ts";
import { contentBlock } from "./facts/display-shapes.ts";
import { answeredBy } from "./facts/permissions.ts";

/** How many requests a session's inbox holds waiting: a request past it is refused (`inbox_full`). */
export const INBOX_LIMIT = 32;

export const inboxRequest = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("prompt"),
    requestId: z.string(),
    blocks: z.array(contentBlock),
    by: answeredBy,
    /** The controller's attachment (session-attachments.ts): the prompt is withdrawn once it is gone. */
    attachmentId: z.string().optional(),
    at: z.string(),
  }),
  z.object({ kind: z.literal("cancel"), requestId: z.string(), by: answeredBy, at: z.string() }),
]);
export type InboxRequest = z.infer<typeof inboxRequest>;
export type InboxKind = InboxRequest["kind"];

/**
 * The request stored as `body` of a row just taken, if it is one: a row of another shape is no
 * request (it stays taken, and is logged).
 */
export function takenRequest(sessionId: string, body: string): InboxRequest | undefined {
  const request = storedBody(inboxRequest, body);
  if (!request) log.warn(`session ${sessionId}: a row of its inbox is no request; it was taken and not run`);
  return request;
}

export const inboxFull = (sessionId: string) =>
  new JournalError(
    "inbox_full",
    `session ${sessionId} has ${INBOX_LIMIT} requests waiting for its writer already; wait for its turns to end, then send again`,
    { sessionId, limit: INBOX_LIMIT },
  );

export const sqliteInboxSql = `
CREATE TABLE IF NOT EXISTS session_inbox (
  session_id TEXT NOT NULL,
  request_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  body TEXT NOT NULL,
  taken INTEGER NOT NULL DEFAULT 0,
  UNIQUE (session_id, request_id)
);
CREATE INDEX IF NOT EXISTS session_inbox_waiting ON session_inbox (session_id, taken, kind);
`;

export const postgresInboxSql = `
CREATE TABLE IF NOT EXISTS verbatim.session_inbox (
  ord bigserial PRIMARY KEY,
  session_id text NOT NULL,
  request_id text NOT NULL,
  kind text NOT NULL,
  body text NOT NULL,
  taken boolean NOT NULL DEFAULT false,
  UNIQUE (session_id, request_id)
);
CREATE INDEX IF NOT EXISTS session_inbox_waiting ON verbatim.session_inbox (session_id, taken, kind);
`;
