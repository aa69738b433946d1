/**
 * `warm()` gets the journal ready to read before the first read (the app calls it once
 * `initialize` is answered): it opens an existing journal read-only, writes nothing, creates
 * nothing, and never throws; a damaged database is reported by the read that meets it.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { SqliteJournal } from "../../src/journal/sqlite-store.ts";
import { dumpDatabase } from "../support/db-dump.ts";
import { chunk, createSession, journalError, tempJournal } from "../support/journal.ts";

describe("warming the journal", () => {
  test("opens an existing journal for reading and writes nothing to it", async () => {
    const { journal, path } = tempJournal();
    const id = createSession(journal);
    journal.append(id, 2, chunk("Hello"), new Date().toISOString());
    journal.close();
    const before = dumpDatabase(path);
    const files = readdirSync(dirname(path)).sort();

    const reader = new SqliteJournal(path);
    reader.warm();
    expect(reader.writing).toBe(false);
    expect([...reader.read(id)].map((r) => r.seq)).toEqual([1, 2]);
    reader.close();
    expect(dumpDatabase(path)).toEqual(before);
    expect(readdirSync(dirname(path)).sort()).toEqual(files);
  });

  test("without a journal, creates none", async () => {
    const { journal, path } = tempJournal();
    journal.warm();
    expect(existsSync(path)).toBe(false);
    expect(existsSync(dirname(path)) ? readdirSync(dirname(path)).filter((f) => f.startsWith("journal")) : []).toEqual(
      [],
    );
    expect(await journal.info("ses_missing")).toBeUndefined();
  });

  test("a damaged database is not an error when warming; the read that meets it reports it", async () => {
    const { journal, path } = tempJournal();
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, "this is not a database");
    expect(() => journal.warm()).not.toThrow();
    expect((await journalError(() => journal.info("ses_any"))).code).toBe("corrupt_database");
  });
});
