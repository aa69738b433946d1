/**
 * A journal file verbatim cannot use (empty, not a verbatim journal, damaged, read-only, from a
 * newer verbatim) gets an error naming the file and what is wrong, from the agent and from the
 * CLI (a non-zero exit, no stack), and is never written to nor has its permissions changed.
 */
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { chmodSync, closeSync, existsSync, openSync, readFileSync, statSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { SqliteJournal } from "../../src/journal/sqlite-store.ts";
import { connectProcess, errorOf, load, newSession } from "../support/acp-session.ts";
import { runCli } from "../support/cli-process.ts";
import { chunk, createSession } from "../support/journal.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";

const SESSION = "ses_test";

/** A journal with one session of many records, folded into the main file. */
function filledJournal(box: Sandbox): string {
  const path = join(box.home, "journal.db");
  const journal = new SqliteJournal(path);
  createSession(journal, SESSION, box.workspace);
  for (let seq = 2; seq <= 400; seq++)
    journal.append(SESSION, seq, chunk(`part ${seq} ${"x".repeat(300)}`), new Date().toISOString());
  journal.close();
  const db = new Database(path);
  db.run("PRAGMA wal_checkpoint(TRUNCATE)");
  db.close();
  return path;
}

/** What a client and the CLI meet with a journal file that cannot be used. */
async function refusals(box: Sandbox) {
  const c = await connectProcess(box.env);
  try {
    return {
      created: await errorOf(newSession(c.ctx, box.workspace)),
      loaded: await errorOf(load(c.ctx, SESSION, box.workspace)),
      sessions: await runCli(["sessions"], box.env),
      show: await runCli(["show", SESSION], box.env),
    };
  } finally {
    await c.close();
  }
}

type Refusals = Awaited<ReturnType<typeof refusals>>;

function expectRefused(r: Refusals, path: string, what: RegExp) {
  for (const error of [r.created, r.loaded]) {
    expect(error.message).toContain(path);
    expect(error.message).toMatch(what);
  }
  for (const cli of [r.sessions, r.show]) {
    expect(cli.code).not.toBe(0);
    expect(cli.stderr).toContain(path);
    expect(cli.stderr).toMatch(what);
    // A message, not a stack.
    expect(cli.stderr).not.toMatch(/\n\s+at |SQLiteError/);
  }
}

describe("a journal file verbatim cannot use", () => {
  test("an empty journal.db: 'empty' everywhere, and it stays empty", async () => {
    const box = sandbox("scripted/plain");
    const path = join(box.home, "journal.db");
    filledJournal(box);
    writeFileSync(path, "");
    const r = await refusals(box);
    expectRefused(r, path, /empty \(0 bytes\)/);
    expect(statSync(path).size).toBe(0);
  });

  test("an SQLite database that is not a verbatim journal: said so, and left as it was", async () => {
    const box = sandbox("scripted/plain");
    const path = join(box.home, "journal.db");
    filledJournal(box);
    writeFileSync(path, "");
    const other = new Database(path);
    other.run("CREATE TABLE notes (text TEXT)");
    other.run("INSERT INTO notes VALUES ('mine')");
    other.close();
    const bytes = readFileSync(path);
    const r = await refusals(box);
    expectRefused(r, path, /not a verbatim journal/);
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });

  test("a journal that quick_check finds damaged is never written to", async () => {
    const box = sandbox("scripted/plain");
    const path = filledJournal(box);
    // Damage a page of the facts table near the end of the file (the meta table, at the start, stays readable).
    const size = statSync(path).size;
    const fd = openSync(path, "r+");
    writeSync(fd, Buffer.alloc(64, 0xff), 0, 64, (Math.floor(size / 4096) - 2) * 4096 + 8);
    closeSync(fd);
    const check = new Database(path, { readonly: true });
    let verdict: string;
    try {
      verdict = JSON.stringify(check.query("PRAGMA quick_check").all());
    } catch (error) {
      verdict = String(error);
    }
    check.close();
    expect(verdict).not.toBe(JSON.stringify([{ quick_check: "ok" }]));
    const bytes = readFileSync(path);
    const c = await connectProcess(box.env);
    try {
      const error = await errorOf(newSession(c.ctx, box.workspace));
      expect(error.message).toContain(path);
      expect(error.message).toMatch(/damaged \(PRAGMA quick_check/);
    } finally {
      await c.close();
    }
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });

  test("a read-only journal: refused for writing, and its permissions are left alone", async () => {
    const box = sandbox("scripted/plain");
    const path = filledJournal(box);
    chmodSync(path, 0o400);
    const bytes = readFileSync(path);
    const c = await connectProcess(box.env);
    try {
      const error = await errorOf(newSession(c.ctx, box.workspace));
      expect(error.message).toContain(path);
      expect(error.message).toMatch(/not writable \(mode 0400\)/);
      // Reading still works.
      const shown = await runCli(["show", SESSION], box.env);
      expect(shown.code).toBe(0);
    } finally {
      await c.close();
    }
    expect(statSync(path).mode & 0o777).toBe(0o400);
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });

  test("a journal from a newer verbatim: refused, naming its layout, and left as it was", async () => {
    const box = sandbox("scripted/plain");
    const path = filledJournal(box);
    const db = new Database(path);
    db.run("UPDATE meta SET value = '99' WHERE key = 'layout'");
    db.run("PRAGMA wal_checkpoint(TRUNCATE)");
    db.close();
    const bytes = readFileSync(path);
    const r = await refusals(box);
    expectRefused(r, path, /newer verbatim \(layout 99/);
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });

  test("a new journal is made whole: no file is left beside it", async () => {
    const box = sandbox("scripted/plain");
    const c = await connectProcess(box.env);
    try {
      await newSession(c.ctx, box.workspace);
    } finally {
      await c.close();
    }
    const path = join(box.home, "journal.db");
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(existsSync(`${path}.new-${c.agent?.pid}`)).toBe(false);
  });
});
