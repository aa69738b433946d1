/**
 * A damaged journal gets a clear error and is never made worse: a missing record, a truncated
 * or overwritten database file. Loading writes nothing, and other sessions are unaffected.
 */
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { readFileSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SqliteJournal } from "../../src/journal/sqlite-store.ts";
import { connectProcess, errorOf, load, newSession, prompt } from "../support/acp-session.ts";
import { chunk, createSession, journalError } from "../support/journal.ts";
import { sandbox } from "../support/workspace.ts";

/** Folds the WAL into the main file, as a clean shutdown does, so damage to the file is damage to the data. */
function checkpoint(path: string): void {
  const db = new Database(path);
  db.run("PRAGMA wal_checkpoint(TRUNCATE)");
  db.close();
}

describe("a damaged journal", () => {
  test("a missing sequence number is an error naming the session and the record", async () => {
    const box = sandbox();
    const path = join(box.home, "journal.db");
    const journal = new SqliteJournal(path);
    const id = createSession(journal);
    for (let seq = 2; seq <= 4; seq++) journal.append(id, seq, chunk(`part ${seq}`), new Date().toISOString());
    journal.close();
    // Simulate damage from outside verbatim: the append-only trigger must be removed to do it.
    const db = new Database(path);
    db.run("DROP TRIGGER facts_no_delete");
    db.run("DELETE FROM facts WHERE session_id = ? AND seq = 3", [id]);
    db.close();
    const reader = new SqliteJournal(path);
    const error = await journalError(() => [...reader.read(id)]);
    reader.close();
    expect(error.code).toBe("missing_record");
    expect(error.message).toContain(id);
    expect(error.message).toContain("record 3");
  });

  test("a file that is not a database: load is a clear error and the file is not touched", async () => {
    const box = sandbox("scripted/plain");
    const path = join(box.home, "journal.db");
    const live = await connectProcess(box.env);
    const { sessionId } = await newSession(live.ctx, box.workspace);
    await prompt(live.ctx, sessionId, "Hi");
    await live.close();
    checkpoint(path);
    writeFileSync(path, "this is not an SQLite database, it was overwritten by accident\n".repeat(200));
    const bytes = readFileSync(path);
    const c = await connectProcess(box.env);
    try {
      const error = await errorOf(load(c.ctx, sessionId, box.workspace));
      expect(error.code).toBe(-32603);
      expect(error.message).toMatch(/damaged|not a database/);
      // The agent stays up and answers.
      const again = await errorOf(newSession(c.ctx, box.workspace));
      expect(again.code).toBe(-32603);
    } finally {
      await c.close();
    }
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });

  test("a truncated database: a clear error, and no write that could make it worse", async () => {
    const box = sandbox("scripted/demo");
    const path = join(box.home, "journal.db");
    const live = await connectProcess(box.env);
    const { sessionId } = await newSession(live.ctx, box.workspace);
    for (const text of ["One", "Two", "Three", "Four"]) await prompt(live.ctx, sessionId, text);
    await live.close();
    checkpoint(path);
    const size = readFileSync(path).length;
    truncateSync(path, Math.floor(size / 2));
    const bytes = readFileSync(path);
    const c = await connectProcess(box.env);
    try {
      const error = await errorOf(load(c.ctx, sessionId, box.workspace));
      expect([-32603, -32002]).toContain(error.code);
      expect(error.message).toMatch(/damaged|malformed|missing|not in the journal/);
    } finally {
      await c.close();
    }
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });
});
