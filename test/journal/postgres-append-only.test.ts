/**
 * On PostgreSQL, a fact once appended is never changed in place, whoever writes: layout 1 let an
 * update through while a session was marked for deletion (a row in `deleting`, which the
 * machines' writer role may insert), so such a role could rewrite what a session said. The first
 * writer hardens the layout (postgres-schema.ts: hardeningSql); deleting a whole session still works.
 */
import { SQL } from "bun";
import { afterAll, expect, test } from "bun:test";
import { PostgresJournal } from "../../src/journal/postgres-store.ts";
import { readAll } from "../../src/journal/store.ts";
import { chunk, startFact } from "../support/journal.ts";
import { freshDatabase } from "../support/postgres-server.ts";

const closing: { close(): Promise<void> }[] = [];
afterAll(async () => {
  for (const c of closing) await c.close();
});

async function sessionOn(url: string, sessionId: string): Promise<PostgresJournal> {
  const store = new PostgresJournal(url);
  closing.push(store);
  const when = new Date().toISOString();
  await store.create(
    { sessionId, cwd: "/work", additionalDirectories: [], createdAt: when, updatedAt: when },
    startFact(),
  );
  await store.append(sessionId, 2, chunk("what was said"), when);
  return store;
}

test("a fact cannot be rewritten even while its session is marked for deletion", async () => {
  const url = await freshDatabase();
  const store = await sessionOn(url, "ses_kept");
  const sql = new SQL(url);
  closing.push(sql);
  await sql`INSERT INTO verbatim.deleting (session_id) VALUES ('ses_kept')`;
  const rewrite = sql`UPDATE verbatim.facts SET body = '{"text":"forged"}' WHERE session_id = 'ses_kept' AND seq = 2`;
  expect(rewrite).rejects.toThrow(/append-only/);
  await sql`DELETE FROM verbatim.deleting WHERE session_id = 'ses_kept'`;
  const facts = await readAll(store, "ses_kept");
  expect(JSON.stringify(facts[1]!.fact)).toContain("what was said");
});

test("deleting a whole session still works", async () => {
  const url = await freshDatabase();
  const store = await sessionOn(url, "ses_gone");
  expect(await store.delete("ses_gone")).toBe(true);
  expect(await store.info("ses_gone")).toBeUndefined();
});
