/**
 * The SQLite writes that start a session's records: a new session, a fork, an import. Each is one
 * transaction on the writer's connection, then told to the checkpointer (wal-checkpointer.ts).
 */
import { encodeFact, type EncodedFact } from "./codec.ts";
import { sessionExists, sessionNotFound } from "./errors.ts";
import type { Fact, StoredFact } from "./facts/index.ts";
import type { ProcessIdentity } from "./process-identity.ts";
import { guard } from "./sqlite-errors.ts";
import type { Writer } from "./sqlite-writer.ts";
import { importedRow, type SessionRow } from "./store.ts";

/** A new session: its row, this process's lease on it and its first record, in one transaction. */
export function createIn(w: Writer, owner: ProcessIdentity, row: SessionRow, first: Fact): StoredFact {
  const at = row.createdAt;
  const created = guard(row.sessionId, () =>
    w.db
      .transaction(() => {
        w.insertRow(row);
        w.upsertLease.run(row.sessionId, owner.pid, owner.startTime);
        const e = encodeFact(first);
        for (const [hash, data] of e.blobs) w.insertBlob.run(row.sessionId, hash, data);
        w.insertFact.run(row.sessionId, 1, e.kind, e.v, at, e.body);
        return { seq: 1, at, fact: first };
      })
      .immediate(),
  );
  w.checkpoints.committed(0);
  return created;
}

/** A fork: the source's records up to `row.forkOf.seq` and its payloads copied, then the fork's own record, in one transaction. */
export function forkIn(
  w: Writer,
  row: SessionRow & { forkOf: { sessionId: string; seq: number } },
  last: Fact,
): StoredFact {
  const from = row.forkOf;
  const at = row.updatedAt;
  const forked = guard(row.sessionId, () =>
    w.db
      .transaction(() => {
        w.insertRow(row);
        const copied = w.db.run(
          "INSERT INTO facts (session_id, seq, kind, v, at, body) SELECT ?, seq, kind, v, at, body FROM facts WHERE session_id = ? AND seq <= ? ORDER BY seq",
          [row.sessionId, from.sessionId, from.seq],
        ).changes;
        if (copied !== from.seq) throw sessionNotFound(from.sessionId);
        w.db.run(
          "INSERT INTO blobs (session_id, sha256, data) SELECT ?, sha256, data FROM blobs WHERE session_id = ?",
          [row.sessionId, from.sessionId],
        );
        const e = encodeFact(last);
        for (const [hash, data] of e.blobs) w.insertBlob.run(row.sessionId, hash, data);
        w.insertFact.run(row.sessionId, from.seq + 1, e.kind, e.v, at, e.body);
        return { seq: from.seq + 1, at, fact: last };
      })
      .immediate(),
  );
  w.checkpoints.committed(0);
  return forked;
}

/** A whole session from elsewhere, its records as they are, in one transaction; refuses an id the journal holds. */
export function importIn(w: Writer, row: SessionRow, records: readonly { fact: Fact; at: string }[]): void {
  const encoded = records.map(({ fact }) => encodeFact(fact));
  const { title, updatedAt } = importedRow(row, records);
  guard(row.sessionId, () =>
    w.db
      .transaction(() => {
        if (w.db.query("SELECT 1 FROM sessions WHERE session_id = ?").get(row.sessionId))
          throw sessionExists(row.sessionId);
        w.insertRow({ ...row, title, updatedAt });
        for (let i = 0; i < records.length; i++) {
          const e = encoded[i] as EncodedFact;
          for (const [hash, data] of e.blobs) w.insertBlob.run(row.sessionId, hash, data);
          w.insertFact.run(row.sessionId, i + 1, e.kind, e.v, (records[i] as { at: string }).at, e.body);
        }
      })
      .immediate(),
  );
  let bytes = 0;
  for (const e of encoded) bytes += e.body.length;
  w.checkpoints.committed(bytes);
}
