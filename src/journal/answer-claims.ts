/**
 * Answers claimed for a session's open questions, by any of its clients, in any process: the
 * writer's own client, or a controller attached through another verbatim process on this machine
 * or another sharing the journal. The first claim of a question wins (the table's primary key is
 * the compare-and-set); the writer asks for the winner and records it as the answer fact, naming
 * who gave it. A claim is a request to the writer, never authority of its own: the writer records
 * the winning answer only for a question it is asking, and checks it as it checks any answer (a
 * permission's option against those offered: permission-gate.ts; a form's values against the
 * form: form-answer.ts). Claims are kept with the session and deleted
 * with it.
 */
import { z } from "zod";
import { keyedSideRows } from "./keyed-side-rows.ts";
import { answeredBy, permissionOutcome } from "./facts/permissions.ts";

/** What a claim answers: a permission question's outcome, or an AskUserQuestion form's answer. */
export const claimedAnswer = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("permission"), outcome: permissionOutcome }),
  z.object({
    kind: z.literal("form"),
    action: z.enum(["accept", "decline", "cancel"]),
    content: z.record(z.string(), z.unknown()).optional(),
  }),
]);
export type ClaimedAnswer = z.infer<typeof claimedAnswer>;

/** The claim key of the form a call's AskUserQuestion puts (a permission question's is its request id). */
export const formClaimKey = (toolCallId: string) => `form:${toolCallId}`;

export const answerClaim = z.object({
  requestId: z.string(),
  answer: claimedAnswer,
  by: answeredBy,
  at: z.string(),
});
export type AnswerClaim = z.infer<typeof answerClaim>;

const rows = keyedSideRows(answerClaim, { name: "answer_claims", key: "request_id", withoutRowid: true });

/** The claim stored as `body`, if it is one (a row of another shape is no claim). */
export const claimFromBody = rows.fromBody;
export const sqliteAnswerClaimsSql = rows.sqliteSql;
export const postgresAnswerClaimsSql = rows.postgresSql;
