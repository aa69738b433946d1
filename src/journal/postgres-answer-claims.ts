/**
 * The answer claims' table in the PostgreSQL journal (answer-claims.ts), created by the first
 * claim (postgres-side-table.ts).
 */
import type { SQL } from "bun";
import { claimFromBody, postgresAnswerClaimsSql, type AnswerClaim } from "./answer-claims.ts";
import { sideTable } from "./postgres-side-table.ts";
import { announcedWrite } from "./postgres-watch.ts";

const table = sideTable("verbatim.answer_claims", postgresAnswerClaimsSql);

/** Inserts the claim unless one holds already; resolves with the claim that holds. */
export async function claimPgAnswer(sql: SQL, sessionId: string, claim: AnswerClaim): Promise<AnswerClaim> {
  await table.ensure(sql);
  await announcedWrite(
    sql,
    sessionId,
    sql`INSERT INTO verbatim.answer_claims (session_id, request_id, body)
      VALUES (${sessionId}, ${claim.requestId}, ${JSON.stringify(claim)})
      ON CONFLICT DO NOTHING
      RETURNING true AS announce`,
  );
  return (await pgAnswerClaimOf(sql, sessionId, claim.requestId)) ?? claim;
}

export async function pgAnswerClaimOf(
  sql: SQL,
  sessionId: string,
  requestId: string,
): Promise<AnswerClaim | undefined> {
  if (!(await table.has(sql))) return undefined;
  const [row] = (await sql`
    SELECT body FROM verbatim.answer_claims WHERE session_id = ${sessionId} AND request_id = ${requestId}`) as {
    body: string;
  }[];
  return row ? claimFromBody(row.body) : undefined;
}

export async function deletePgAnswerClaims(tx: SQL, sessionId: string): Promise<void> {
  if (await table.has(tx)) await tx`DELETE FROM verbatim.answer_claims WHERE session_id = ${sessionId}`;
}
