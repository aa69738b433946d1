/**
 * `warm()` gets the journal ready to read before the first read (the app calls it once
 * `initialize` is answered): it opens an existing journal read-only and compiles the statements a
 * load runs, writes nothing, creates nothing, and never throws; a damaged database is reported by the read that meets it.
 */
import { Database } from "bun:sqlite";
import { describe, expect, spyOn, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { partWithChecksum, withChecksum, type ReplayCacheKey } from "../../src/journal/replay-cache.ts";
import { SqliteJournal } from "../../src/journal/sqlite-store.ts";
import { dumpDatabase } from "../support/db-dump.ts";
import { chunk, createSession, journalError, tempJournal } from "../support/journal.ts";

const KEY: ReplayCacheKey = { version: 1, capabilities: "notices=0;compaction=0" };

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

  test("compiles every statement a load from the cache runs, so that the load does not", async () => {
    const { journal, path } = tempJournal();
    const id = createSession(journal);
    await journal.acquire(id);
    await journal.putReplayCache(id, KEY, {
      rows: [withChecksum({ ...KEY, fromSeq: 1, toSeq: 1, lines: "a\n" })],
      parts: [partWithChecksum(KEY, { part: "head", ord: 0, body: "{}" })],
    });
    await journal.close();
    // Spied, not replaced: each statement is still compiled, and its text recorded.
    const spy = spyOn(Database.prototype, "query");
    const compiled = () => spy.mock.calls.map(([sql]) => sql);
    try {
      const reader = new SqliteJournal(path);
      reader.warm();
      const warmed = new Set(compiled());
      spy.mockClear();
      await reader.info(id);
      await reader.lastOf(id, ["session_rewound"]);
      for await (const _ of reader.readReplayPages(id, KEY));
      await reader.readReplayState(id, KEY, ["head"]);
      await reader.readReplayState(id, KEY);
      await reader.authority(id, 1);
      for await (const _ of reader.readPages(id, 2));
      await reader.holder(id);
      await reader.close();
      expect(compiled().length).toBeGreaterThan(0);
      expect(compiled().filter((sql) => !warmed.has(sql))).toEqual([]);
    } finally {
      spy.mockRestore();
    }
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
