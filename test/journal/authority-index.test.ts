/**
 * A load from the replay cache reads the session's authority records through their partial index
 * (facts/authority.ts). The index's predicate is its list of kinds, so a journal indexed by a
 * verbatim that knew other kinds must gain an index of today's: SQLite refuses `INDEXED BY` an
 * index whose predicate does not cover the query ("no query solution"), and every load of a
 * cached session failed with an internal error once the import's record became an authority kind.
 */
import { Database } from "bun:sqlite";
import { SQL } from "bun";
import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { AUTHORITY_INDEX, AUTHORITY_KINDS } from "../../src/journal/facts/authority.ts";
import type { ViewModel } from "../../src/view/view-model.ts";
import { PostgresJournal } from "../../src/journal/postgres-store.ts";
import { readRows } from "../../src/journal/sqlite-replay-cache.ts";
import { connectProcess, load, newSession, prompt, until } from "../support/acp-session.ts";
import { startFact } from "../support/journal.ts";
import { freshDatabase } from "../support/postgres-server.ts";
import { sandbox } from "../support/workspace.ts";

/** The kinds verbatim indexed as `facts_authority` before the import's record was one of them. */
const FIRST_KINDS = ["session_started", "session_moved", "config_changed", "access_granted", "permission_rule_added"];
const FIRST_INDEX = `CREATE INDEX facts_authority ON facts (session_id, seq) WHERE kind IN (${FIRST_KINDS.map((k) => `'${k}'`).join(", ")})`;

const closing: { close(): Promise<void> }[] = [];
afterAll(async () => {
  for (const c of closing) await c.close();
});

test("each authority index name stands for one list of kinds (a new kind needs a new name)", () => {
  expect({ name: AUTHORITY_INDEX, kinds: [...AUTHORITY_KINDS] as string[] }).toEqual({
    name: "facts_authority_2",
    kinds: [...FIRST_KINDS, "session_imported"],
  });
});

test("a cached session in a journal indexed for the first authority kinds reopens from its cache, and its next writer adds today's index", async () => {
  const box = sandbox("scripted/call");
  const path = join(box.home, "journal.db");
  const live = await connectProcess(box.env);
  let sessionId = "";
  let shownLive: ViewModel | undefined;
  try {
    sessionId = (await newSession(live.ctx, box.workspace)).sessionId;
    await prompt(live.ctx, sessionId, 'Glob {"pattern":"*.md"}');
    const cachedRows = () => {
      const db = new Database(path, { readonly: true });
      try {
        return readRows(db, sessionId).length;
      } finally {
        db.close();
      }
    };
    await until(() => cachedRows() === 1, "a cached row for the first turn");
    shownLive = live.client.view(sessionId);
  } finally {
    await live.close();
  }
  // The journal as an earlier verbatim left it: its index of the first kinds, none of today's.
  const db = new Database(path);
  db.run(`DROP INDEX ${AUTHORITY_INDEX}`);
  db.run(FIRST_INDEX);
  db.close();

  const reopened = await connectProcess(box.env);
  try {
    await load(reopened.ctx, sessionId, box.workspace);
    expect(reopened.client.view(sessionId)).toEqual(shownLive);
    // Its next turn opens the journal for writing.
    await prompt(reopened.ctx, sessionId, 'Glob {"pattern":"*.md"}');
  } finally {
    await reopened.close();
  }
  const after = new Database(path, { readonly: true });
  const indexes = after
    .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'facts_authority%'")
    .all()
    .map((r) => r.name)
    .sort();
  after.close();
  // The old index stays for an older verbatim sharing the journal.
  expect(indexes).toEqual(["facts_authority", AUTHORITY_INDEX]);
});

test("a PostgreSQL journal indexed for the first authority kinds gains today's index at its next writer", async () => {
  const url = await freshDatabase();
  const first = new PostgresJournal(url);
  const when = new Date().toISOString();
  await first.create(
    { sessionId: "ses_a", cwd: "/work", additionalDirectories: [], createdAt: when, updatedAt: when },
    startFact(),
  );
  await first.close();
  const sql = new SQL(url);
  closing.push(sql);
  await sql.unsafe(`DROP INDEX verbatim.${AUTHORITY_INDEX}`);
  await sql.unsafe(FIRST_INDEX.replace("ON facts", "ON verbatim.facts"));

  const next = new PostgresJournal(url);
  closing.push(next);
  await next.create(
    { sessionId: "ses_b", cwd: "/work", additionalDirectories: [], createdAt: when, updatedAt: when },
    startFact(),
  );
  const [row] =
    (await sql`SELECT indexdef FROM pg_indexes WHERE schemaname = 'verbatim' AND indexname = ${AUTHORITY_INDEX}`) as {
      indexdef: string;
    }[];
  for (const kind of AUTHORITY_KINDS) expect(row?.indexdef).toContain(`'${kind}'`);
});
