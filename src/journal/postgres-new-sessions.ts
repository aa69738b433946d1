/**
 * The PostgreSQL writes that start a session's records, each inside the transaction the store
 * opened: a new session (its row, the lease, its first record), a fork (the source's records and
 * payloads copied, then its own record), an import (a whole session as it was).
 */
import type { SQL } from "bun";
import type { EncodedFact } from "./codec.ts";
import { sessionExists, sessionNotFound } from "./errors.ts";
import type { Fact } from "./facts/index.ts";
import { importedRow, type SessionRow } from "./store.ts";

/** The lease's holder as the leases table names it. */
type Owner = { host: string; pid: number; startTime: string };

async function insertBlobs(tx: SQL, sessionId: string, e: EncodedFact): Promise<void> {
  for (const [hash, data] of e.blobs) {
    await tx`INSERT INTO verbatim.blobs (session_id, sha256, data) VALUES (${sessionId}, ${hash}, ${data}) ON CONFLICT DO NOTHING`;
  }
}

export async function insertCreated(tx: SQL, row: SessionRow, e: EncodedFact, owner: Owner): Promise<void> {
  const id = row.sessionId;
  await tx`INSERT INTO verbatim.sessions (session_id, cwd, additional_directories, title, created_at, updated_at, parent_session_id)
    VALUES (${id}, ${row.cwd}, ${JSON.stringify(row.additionalDirectories)}, ${row.title ?? null}, ${row.createdAt}, ${row.updatedAt}, ${row.parentSessionId ?? null})`;
  await tx`INSERT INTO verbatim.leases (session_id, host, pid, start_time, epoch)
    VALUES (${id}, ${owner.host}, ${owner.pid}, ${owner.startTime}, 1)`;
  await insertBlobs(tx, id, e);
  await tx`INSERT INTO verbatim.facts (session_id, seq, kind, v, at, body) VALUES (${id}, 1, ${e.kind}, ${e.v}, ${row.createdAt}, ${e.body})`;
}

/** Throws `session_not_found` when the source holds fewer records than the fork copies. */
export async function insertFork(
  tx: SQL,
  row: SessionRow & { forkOf: { sessionId: string; seq: number } },
  e: EncodedFact,
): Promise<void> {
  const id = row.sessionId;
  const from = row.forkOf;
  await tx`INSERT INTO verbatim.sessions (session_id, cwd, additional_directories, title, created_at, updated_at, parent_session_id, forked_from)
    VALUES (${id}, ${row.cwd}, ${JSON.stringify(row.additionalDirectories)}, ${row.title ?? null}, ${row.createdAt}, ${row.updatedAt}, ${row.parentSessionId ?? null}, ${JSON.stringify(from)})`;
  const copied = await tx`INSERT INTO verbatim.facts (session_id, seq, kind, v, at, body)
    SELECT ${id}, seq, kind, v, at, body FROM verbatim.facts WHERE session_id = ${from.sessionId} AND seq <= ${from.seq} ORDER BY seq`;
  if (copied.count !== from.seq) throw sessionNotFound(from.sessionId);
  await tx`INSERT INTO verbatim.blobs (session_id, sha256, data) SELECT ${id}, sha256, data FROM verbatim.blobs WHERE session_id = ${from.sessionId}`;
  await insertBlobs(tx, id, e);
  await tx`INSERT INTO verbatim.facts (session_id, seq, kind, v, at, body) VALUES (${id}, ${from.seq + 1}, ${e.kind}, ${e.v}, ${row.updatedAt}, ${e.body})`;
}

/** Throws `session_exists` when the journal holds the session's id already. */
export async function insertImported(
  tx: SQL,
  row: SessionRow,
  records: readonly { fact: Fact; at: string }[],
  encoded: readonly EncodedFact[],
): Promise<void> {
  const id = row.sessionId;
  const blobs: { sha256: string; data: string }[] = [];
  for (const e of encoded) for (const [sha256, data] of e.blobs) blobs.push({ sha256, data });
  const rows = encoded.map((e, i) => ({ seq: i + 1, kind: e.kind, v: e.v, at: records[i]!.at, body: e.body }));
  const { title, updatedAt } = importedRow(row, records);
  const [present] = (await tx`SELECT 1 AS one FROM verbatim.sessions WHERE session_id = ${id}`) as unknown[];
  if (present) throw sessionExists(id);
  await tx`INSERT INTO verbatim.sessions (session_id, cwd, additional_directories, title, created_at, updated_at, parent_session_id, forked_from)
    VALUES (${id}, ${row.cwd}, ${JSON.stringify(row.additionalDirectories)}, ${title ?? null}, ${row.createdAt}, ${updatedAt}, ${row.parentSessionId ?? null}, ${row.forkOf ? JSON.stringify(row.forkOf) : null})`;
  await tx`INSERT INTO verbatim.blobs (session_id, sha256, data)
    SELECT ${id}, b.sha256, b.data FROM json_to_recordset(${JSON.stringify(blobs)}::text::json) AS b(sha256 text, data text)
    ON CONFLICT DO NOTHING`;
  await tx`INSERT INTO verbatim.facts (session_id, seq, kind, v, at, body)
    SELECT ${id}, f.seq, f.kind, f.v, f.at, f.body FROM json_to_recordset(${JSON.stringify(rows)}::text::json) AS f(seq integer, kind text, v integer, at text, body text)
    ORDER BY f.seq`;
}
