/**
 * The answer claims' table in the PostgreSQL journal (answer-claims.ts): created by the first
 * claim (under the layout's lock, so that two machines creating it at once do not collide); a
 * journal without it has no claims.
 */
import type { SQL } from "bun";
import { claimFromBody, postgresAnswerClaimsSql, type AnswerClaim } from "./answer-claims.ts";
import { LAYOUT_LOCK_KEY } from "./postgres-schema.ts";

/** Connections whose database is known to have the table. */
const ready = new WeakSet<SQL>();

async function ensureTable(sql: SQL): Promise<void> {
  if (ready.has(sql)) return;
  await sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${LAYOUT_LOCK_KEY})`;
    await tx.unsafe(postgresAnswerClaimsSql);
  });
  ready.add(sql);
}

async function hasTable(sql: SQL): Promise<boolean> {
  if (ready.has(sql)) return true;
  const [row] = (await sql`SELECT to_regclass('verbatim.answer_claims') IS NOT NULL AS present`) as {
    present: boolean;
  }[];
  if (row?.present) ready.add(sql);
  return row?.present === true;
}

/** Inserts the claim unless one holds already; resolves with the claim that holds. */
export async function claimPgAnswer(sql: SQL, sessionId: string, claim: AnswerClaim): Promise<AnswerClaim> {
  await ensureTable(sql);
  await sql`
    INSERT INTO verbatim.answer_claims (session_id, request_id, body)
    VALUES (${sessionId}, ${claim.requestId}, ${JSON.stringify(claim)})
    ON CONFLICT DO NOTHING`;
  return (await pgAnswerClaimOf(sql, sessionId, claim.requestId)) ?? claim;
}

export async function pgAnswerClaimOf(
  sql: SQL,
  sessionId: string,
  requestId: string,
): Promise<AnswerClaim | undefined> {
  if (!(await hasTable(sql))) return undefined;
  const [row] = (await sql`
    SELECT body FROM verbatim.answer_claims WHERE session_id = ${sessionId} AND request_id = ${requestId}`) as {
    body: string;
  }[];
  return row ? claimFromBody(row.body) : undefined;
}

export async function deletePgAnswerClaims(tx: SQL, sessionId: string): Promise<void> {
  if (await hasTable(tx)) await tx`DELETE FROM verbatim.answer_claims WHERE session_id = ${sessionId}`;
}
