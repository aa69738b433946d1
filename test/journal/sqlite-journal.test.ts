import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { statSync } from "node:fs";
import { hostname } from "node:os";
import { dirname } from "node:path";
import { AUTHORITY_INDEX } from "../../src/journal/facts/authority.ts";
import type { FactKind } from "../../src/journal/facts/index.ts";
import { withChecksum, type ReplayCacheKey } from "../../src/journal/replay-cache.ts";
import { openForReading, READER_CACHE_PAGES } from "../../src/journal/sqlite-open.ts";
import { countOfSql, lastOfSql } from "../../src/journal/sqlite-reads.ts";
import { SqliteJournal } from "../../src/journal/sqlite-store.ts";
import { chunk, createSession, journalError, tempJournal } from "../support/journal.ts";

const now = () => new Date().toISOString();

const CACHE_KEY: ReplayCacheKey = { version: 1, capabilities: "notices=0;compaction=0" };

describe("the SQLite journal", () => {
  test("reads back every appended fact in order, validated", async () => {
    const { journal } = tempJournal();
    const id = createSession(journal);
    journal.append(id, 2, chunk("Hello "), now());
    journal.append(id, 3, chunk("world"), now());
    const facts = [...journal.read(id)];
    expect(facts.map((f) => f.seq)).toEqual([1, 2, 3]);
    expect(facts.map((f) => f.fact.kind)).toEqual(["session_started", "message_chunk", "message_chunk"]);
    expect(facts[2]?.fact).toEqual(chunk("world"));
  });

  test("a session's last record of a sparse kind (its start, a rule, a rewind), and the count of its prompts, are read through partial indexes, not by walking the session", () => {
    const { journal, path } = tempJournal();
    createSession(journal);
    journal.close();
    const db = new Database(path, { readonly: true });
    const plan = (kinds: FactKind[]) =>
      db
        .query<{ detail: string }, string[]>(`EXPLAIN QUERY PLAN ${lastOfSql(db, kinds)}`)
        .all("ses_x", ...kinds)
        .map((row) => row.detail)
        .join("; ");
    expect(plan(["session_started"])).toContain(`USING INDEX ${AUTHORITY_INDEX}`);
    expect(plan(["config_changed", "session_started"])).toContain(`USING INDEX ${AUTHORITY_INDEX}`);
    expect(plan(["session_rewound"])).toContain("USING INDEX facts_rewinds");
    // A kind a turn writes is found near the session's end by its key.
    expect(plan(["turn_ended"])).toContain("USING PRIMARY KEY");
    const count = db
      .query<{ detail: string }, (string | number)[]>(`EXPLAIN QUERY PLAN ${countOfSql(db, ["prompt_received"])}`)
      .all("ses_x", 1, 10, "prompt_received")
      .map((row) => row.detail)
      .join("; ");
    expect(count).toContain("INDEX facts_prompts");
    db.close();
  });

  test("refuses an append at a sequence number that is not the next one", async () => {
    const { journal } = tempJournal();
    const id = createSession(journal);
    expect((await journalError(() => journal.append(id, 3, chunk("skips 2"), now()))).code).toBe("stale_write");
    journal.append(id, 2, chunk("ok"), now());
    expect((await journalError(() => journal.append(id, 2, chunk("again at 2"), now()))).code).toBe("stale_write");
    expect([...journal.read(id)].length).toBe(2);
  });

  test("rejects UPDATE and DELETE on facts in the database itself", async () => {
    const { journal, path } = tempJournal();
    const id = createSession(journal);
    journal.close();
    const db = new Database(path);
    expect(() => db.run("UPDATE facts SET body = '{}' WHERE session_id = ?", [id])).toThrow(/append-only/);
    expect(() => db.run("DELETE FROM facts WHERE session_id = ?", [id])).toThrow(/append-only/);
    db.close();
  });

  test("deleting a session is the one explicit exception", async () => {
    const { journal } = tempJournal();
    const id = createSession(journal);
    const other = createSession(journal, "ses_other");
    expect(await journal.delete(id)).toBe(true);
    expect(await journal.info(id)).toBeUndefined();
    expect((await journalError(() => [...journal.read(id)])).code).toBe("not_found");
    expect([...journal.read(other)].length).toBe(1);
    expect(await journal.delete(id)).toBe(false);
  });

  test("creates its directory and files private to the user", async () => {
    const { journal, path } = tempJournal();
    createSession(journal);
    expect(statSync(dirname(path)).mode & 0o777).toBe(0o700);
    for (const file of [path, `${path}-wal`, `${path}-shm`]) expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  test("a process that only reads opens the database read-only", async () => {
    const { journal, path } = tempJournal();
    const id = createSession(journal);
    journal.close();
    const reader = new SqliteJournal(path);
    expect([...reader.read(id)].length).toBe(1);
    expect(reader.writing).toBe(false);
    expect(() => new Database(path, { readonly: true }).run("INSERT INTO meta VALUES ('x', 'y')")).toThrow(/readonly/);
    reader.close();
  });

  test("the read-only connection keeps a page cache of a few pages (a load reads each page once)", () => {
    const { journal, path } = tempJournal();
    createSession(journal);
    journal.close();
    const db = openForReading(path);
    expect(db?.query<{ cache_size: number }, []>("PRAGMA cache_size").get()?.cache_size).toBe(READER_CACHE_PAGES);
    db?.close();
  });

  test("a replay cache kept in the earlier WITHOUT ROWID layout is moved, row for row, into a rowid table with its lines last when a writer opens the journal, and stays trusted", async () => {
    const { journal, path } = tempJournal();
    const id = createSession(journal);
    await journal.acquire(id);
    const rows = [withChecksum({ ...CACHE_KEY, fromSeq: 1, toSeq: 1, lines: "a\n" })];
    await journal.putReplayCache(id, CACHE_KEY, { rows, parts: [] });
    await journal.close();
    const db = new Database(path);
    db.transaction(() => {
      db.run("ALTER TABLE replay_cache RENAME TO current_layout");
      db.run(`CREATE TABLE replay_cache (session_id TEXT NOT NULL, version INTEGER NOT NULL, capabilities TEXT NOT NULL,
        from_seq INTEGER NOT NULL, to_seq INTEGER NOT NULL, lines TEXT NOT NULL, checksum TEXT NOT NULL,
        PRIMARY KEY (session_id, version, capabilities, from_seq)) WITHOUT ROWID`);
      db.run(
        "INSERT INTO replay_cache SELECT session_id, version, capabilities, from_seq, to_seq, lines, checksum FROM current_layout",
      );
      db.run("DROP TABLE current_layout");
      // As the verbatim that wrote this layout left it: the schema as it stands is the trusted one.
      db.run(
        "UPDATE meta SET value = (SELECT CAST(schema_version AS TEXT) FROM pragma_schema_version) WHERE key = 'replay_cache_schema'",
      );
    })();
    db.close();
    const writer = new SqliteJournal(path);
    await writer.acquire(id);
    const pages = [];
    for await (const page of writer.readReplayPages(id, CACHE_KEY)) pages.push(...page);
    expect(pages.map((r) => [r.fromSeq, r.toSeq, new TextDecoder().decode(r.lines as Uint8Array), r.checksum])).toEqual(
      rows.map((r) => [r.fromSeq, r.toSeq, r.lines, r.checksum]),
    );
    await writer.close();
    const after = new Database(path, { readonly: true });
    const table = after.query<{ sql: string }, []>("SELECT sql FROM sqlite_master WHERE name = 'replay_cache'").get();
    const columns = after
      .query<{ name: string }, []>("PRAGMA table_info(replay_cache)")
      .all()
      .map((c) => c.name);
    after.close();
    expect(table?.sql).not.toMatch(/WITHOUT ROWID/i);
    expect(columns.at(-1)).toBe("lines");
  });

  test("reading a session that does not exist is a not_found error, and creates no file", async () => {
    const { path } = tempJournal();
    const reader = new SqliteJournal(path);
    expect((await journalError(() => [...reader.read("ses_nope")])).code).toBe("not_found");
    expect(() => statSync(path)).toThrow();
  });

  test("lists sessions newest first, filtered by cwd, with paging", async () => {
    const { journal } = tempJournal();
    for (let i = 0; i < 5; i++) {
      const id = createSession(journal, `ses_${i}`, i % 2 ? "/odd" : "/even");
      journal.append(
        id,
        2,
        { kind: "prompt_received", turnId: `turn_${i}`, messageId: `msg_${i}`, blocks: [{ type: "text", text: "hi" }] },
        now(),
      );
      await Bun.sleep(2);
    }
    // A session that never received a prompt is not listed.
    await createSession(journal, "ses_promptless");
    expect((await journal.list({ limit: 10 })).map((r) => r.sessionId)).toEqual([
      "ses_4",
      "ses_3",
      "ses_2",
      "ses_1",
      "ses_0",
    ]);
    expect((await journal.list({ limit: 10, cwd: "/odd" })).map((r) => r.sessionId)).toEqual(["ses_3", "ses_1"]);
    const first = await journal.list({ limit: 2 });
    const last = first[first.length - 1]!;
    expect(
      (await journal.list({ limit: 2, after: { updatedAt: last.updatedAt, sessionId: last.sessionId } })).map(
        (r) => r.sessionId,
      ),
    ).toEqual(["ses_2", "ses_1"]);
  });

  test("a title fact updates the session's listed title", async () => {
    const { journal } = tempJournal();
    const id = createSession(journal);
    journal.append(id, 2, { kind: "title_set", title: "Fix the parser" }, now());
    expect((await journal.info(id))?.title).toBe("Fix the parser");
  });

  test("strict durability works the same way", async () => {
    const { journal } = tempJournal("strict");
    const id = createSession(journal);
    journal.append(id, 2, chunk("durable"), now());
    expect([...journal.read(id)].length).toBe(2);
  });
});

describe("one writer per session", () => {
  test("a second writer is refused while the owner lives", async () => {
    const { journal, path } = tempJournal();
    const id = createSession(journal);
    // A live process that is not us: a sleeping child holds the lease.
    const child = Bun.spawn(["sleep", "30"]);
    try {
      const db = new Database(path);
      db.run("UPDATE leases SET pid = ?, start_time = '' WHERE session_id = ?", [child.pid, id]);
      db.close();
      const error = await journalError(() => journal.append(id, 2, chunk("mine"), now()));
      expect(error.code).toBe("busy");
      expect(error.message).toContain(String(child.pid));
      expect((await journalError(() => journal.acquire(id))).code).toBe("busy");
      expect(await journal.holder(id)).toEqual({ pid: child.pid, host: hostname(), startTime: "" });
    } finally {
      child.kill(9);
      await child.exited;
    }
    // Once the owner is dead, the lease can be taken over.
    expect(await journal.holder(id)).toBeUndefined();
    journal.acquire(id);
    journal.append(id, 2, chunk("taken over"), now());
    expect([...journal.read(id)].length).toBe(2);
  });
});
