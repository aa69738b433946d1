/**
 * Reading the journal from PostgreSQL: a session's records in keyset pages (memory holds one
 * page, however long the session), with the blobs they refer to; its row; the listing; the latest
 * record of some kinds, and how many; its subagents' rows. Nothing here writes, or takes a lease.
 */
import type { SQL } from "bun";
import { blobRefsOf } from "./blob-refs.ts";
import { decodeRecord, nextInSequence } from "./codec.ts";
import { sessionNotFound } from "./errors.ts";
import { AUTHORITY_SPARSE_INDEX, sparsePredicate } from "./facts/sparse-indexes.ts";
import type { FactKind, StoredFact } from "./facts/index.ts";
import type { PostgresLayout } from "./postgres-layout.ts";
import { toSessionRow, type SessionDbRow } from "./session-rows.ts";
import type { ListQuery, SeqRange, SessionRow } from "./store.ts";

/** Records per page of a read (keyset pages: memory holds one page, however long the session). */
const PAGE_SIZE = 512;

type FactRow = { seq: number; kind: string; v: number; at: string; body: string };
type Guard = <T>(sessionId: string | undefined, run: () => Promise<T>) => Promise<T>;

export class PostgresReads {
  constructor(
    private readonly sql: SQL,
    private readonly guard: Guard,
    private readonly layout: PostgresLayout,
  ) {}

  async *readPages(sessionId: string, fromSeq = 1): AsyncGenerator<readonly StoredFact[]> {
    if ((await this.layout.read()) === undefined) throw sessionNotFound(sessionId);
    let expected = fromSeq;
    for (;;) {
      const from = expected;
      const rows = (await this.guard(
        sessionId,
        () => this.sql`
        SELECT seq, kind, v, at, body FROM verbatim.facts
        WHERE session_id = ${sessionId} AND seq >= ${from} ORDER BY seq LIMIT ${PAGE_SIZE}`,
      )) as FactRow[];
      if (rows.length === 0) break;
      const blobs = await this.#blobsFor(sessionId, rows);
      const page: StoredFact[] = [];
      for (const row of rows) {
        expected = nextInSequence(sessionId, expected, row.seq);
        page.push(decodeRecord(sessionId, row, (hash) => blobs.get(hash)));
      }
      yield page;
      if (rows.length < PAGE_SIZE) break;
    }
    if (expected === 1 && fromSeq === 1) throw sessionNotFound(sessionId);
  }

  async info(sessionId: string): Promise<SessionRow | undefined> {
    if ((await this.layout.read()) === undefined) return undefined;
    const [row] = (await this.guard(
      sessionId,
      () => this.sql`SELECT * FROM verbatim.sessions WHERE session_id = ${sessionId}`,
    )) as SessionDbRow[];
    return row ? toSessionRow(row) : undefined;
  }

  async list(query: ListQuery): Promise<SessionRow[]> {
    if ((await this.layout.read()) === undefined) return [];
    const asOf = query.asOf ?? new Date().toISOString();
    const args: string[] = [asOf];
    const where = [
      "s.parent_session_id IS NULL",
      "s.created_at <= $1",
      "EXISTS (SELECT 1 FROM verbatim.facts p WHERE p.session_id = s.session_id AND p.kind = 'prompt_received' AND p.at <= $1)",
    ];
    if (query.cwd !== undefined) {
      args.push(query.cwd);
      where.push(`s.cwd = $${args.length}`);
    }
    if (query.exceptCwd !== undefined) {
      args.push(query.exceptCwd);
      where.push(`s.cwd <> $${args.length}`);
    }
    if (query.repository !== undefined) {
      // As in SQLite's list: the session's first record says where it started.
      args.push(query.repository.remote, query.repository.innerPath);
      where.push(`EXISTS (SELECT 1 FROM verbatim.facts o WHERE o.session_id = s.session_id AND o.seq = 1
        AND (o.body::jsonb #>> '{origin,git,remote}') = $${args.length - 1} AND (o.body::jsonb #>> '{origin,git,innerPath}') = $${args.length})`);
    }
    let after = "";
    if (query.after) {
      args.push(query.after.updatedAt, query.after.sessionId);
      after = `WHERE activity < $${args.length - 1} OR (activity = $${args.length - 1} AND session_id < $${args.length})`;
    }
    const limit = Math.max(1, Math.floor(query.limit));
    // A session written after `asOf` is placed by its last record before then, so its place
    // does not move between the pages of one listing (as in SQLite's list).
    const text = `SELECT * FROM (
      SELECT s.*, CASE WHEN s.updated_at <= $1 THEN s.updated_at
        ELSE (SELECT MAX(f.at) FROM verbatim.facts f WHERE f.session_id = s.session_id AND f.at <= $1) END AS activity
      FROM verbatim.sessions s WHERE ${where.join(" AND ")}
    ) listed ${after} ORDER BY activity DESC, session_id DESC LIMIT ${limit}`;
    const rows = (await this.guard(undefined, () => this.sql.unsafe(text, args))) as (SessionDbRow & {
      activity: string;
    })[];
    return rows.map((row) => ({ ...toSessionRow(row), updatedAt: row.activity }));
  }

  async lastOf(sessionId: string, kinds: readonly FactKind[]): Promise<StoredFact | undefined> {
    if (kinds.length === 0 || (await this.layout.read()) === undefined) return undefined;
    // The sparse index's predicate said literally (facts/sparse-indexes.ts), so the planner can use it.
    const text = `SELECT seq, kind, v, at, body FROM verbatim.facts
      WHERE session_id = $1 AND ${sparsePredicate(kinds)}kind = ANY($2) ORDER BY seq DESC LIMIT 1`;
    const rows = (await this.guard(sessionId, () =>
      this.sql.unsafe(text, [sessionId, this.sql.array([...kinds], "TEXT")]),
    )) as FactRow[];
    const row = rows[0];
    if (!row) return undefined;
    const blobs = await this.#blobsFor(sessionId, rows);
    return decodeRecord(sessionId, row, (hash) => blobs.get(hash));
  }

  async authority(sessionId: string, upToSeq: number): Promise<StoredFact[]> {
    if ((await this.layout.read()) === undefined) throw sessionNotFound(sessionId);
    // Literal kinds, as the partial index's predicate says them (postgres-schema.ts), so the planner can use it.
    const text = `SELECT seq, kind, v, at, body FROM verbatim.facts
      WHERE session_id = $1 AND seq <= $2 AND ${AUTHORITY_SPARSE_INDEX.predicate} ORDER BY seq`;
    const rows = (await this.guard(sessionId, () => this.sql.unsafe(text, [sessionId, upToSeq]))) as FactRow[];
    const blobs = await this.#blobsFor(sessionId, rows);
    return rows.map((row) => decodeRecord(sessionId, row, (hash) => blobs.get(hash)));
  }

  async lastSeq(sessionId: string): Promise<number> {
    if ((await this.layout.read()) === undefined) return 0;
    const [row] = (await this.guard(
      sessionId,
      () => this.sql`SELECT COALESCE(max(seq), 0)::int AS n FROM verbatim.facts WHERE session_id = ${sessionId}`,
    )) as { n: number }[];
    return row?.n ?? 0;
  }

  async countOf(
    sessionId: string,
    kinds: readonly FactKind[],
    within: SeqRange = { fromSeq: 1, toSeq: Number.MAX_SAFE_INTEGER },
  ): Promise<number> {
    if (kinds.length === 0 || (await this.layout.read()) === undefined) return 0;
    const text = `SELECT COUNT(*)::int AS n FROM verbatim.facts
      WHERE session_id = $1 AND ${sparsePredicate(kinds)}seq BETWEEN $2 AND $3 AND kind = ANY($4)`;
    const [row] = (await this.guard(sessionId, () =>
      this.sql.unsafe(text, [sessionId, within.fromSeq, within.toSeq, this.sql.array([...kinds], "TEXT")]),
    )) as { n: number }[];
    return row?.n ?? 0;
  }

  async children(sessionId: string): Promise<SessionRow[]> {
    if ((await this.layout.read()) === undefined) return [];
    const rows = (await this.guard(
      sessionId,
      () => this.sql`
      SELECT * FROM verbatim.sessions WHERE parent_session_id = ${sessionId} ORDER BY created_at, session_id`,
    )) as SessionDbRow[];
    return rows.map(toSessionRow);
  }

  /** Blobs the page's records refer to, by content hash. */
  async #blobsFor(sessionId: string, rows: FactRow[]): Promise<Map<string, string>> {
    const hashes = new Set<string>();
    for (const row of rows) {
      if (!row.body.includes('"$blobs"')) continue;
      try {
        for (const ref of blobRefsOf(JSON.parse(row.body) as Record<string, unknown>) ?? []) hashes.add(ref.sha256);
      } catch {
        // Decoding reports the record as damaged.
      }
    }
    if (hashes.size === 0) return new Map();
    const found = (await this.guard(
      sessionId,
      () => this.sql`
      SELECT sha256, data FROM verbatim.blobs
      WHERE session_id = ${sessionId} AND sha256 = ANY(ARRAY(SELECT json_array_elements_text(${JSON.stringify([...hashes])}::text::json)))`,
    )) as { sha256: string; data: string }[];
    return new Map(found.map((b) => [b.sha256, b.data]));
  }
}
