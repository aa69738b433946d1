/**
 * What the PostgreSQL store adds to the store contract: one writer per session across
 * processes and machines (a lock, a lease naming the holder's host, an epoch that fences a
 * writer taken over), failures that name the server and never the password, the layout.
 */
import { SQL } from "bun";
import { afterAll, describe, expect, test } from "bun:test";
import { hostname } from "node:os";
import { PostgresJournal } from "../../src/journal/postgres-store.ts";
import { thisProcess } from "../../src/journal/process-identity.ts";
import { readAll, type Durability } from "../../src/journal/store.ts";
import { chunk, journalError, startFact } from "../support/journal.ts";
import { freshDatabase, postgresServer } from "../support/postgres-server.ts";

const now = () => new Date().toISOString();
const stores: PostgresJournal[] = [];
const storeOn = (url: string, durability?: Durability) => {
  const store = new PostgresJournal(url, durability ? { durability } : {});
  stores.push(store);
  return store;
};
afterAll(async () => {
  for (const store of stores) await store.close();
});

async function created(url: string, sessionId = "ses_pg", durability?: Durability) {
  const store = storeOn(url, durability);
  const when = now();
  await store.create(
    { sessionId, cwd: "/work", additionalDirectories: [], createdAt: when, updatedAt: when },
    startFact(),
  );
  return store;
}

/** The backends holding this database's advisory locks (the writers' lock connections). */
async function lockBackends(url: string): Promise<number[]> {
  const { admin } = await postgresServer();
  const database = new URL(url).pathname.slice(1);
  const rows =
    (await admin`SELECT DISTINCT l.pid FROM pg_locks l JOIN pg_database d ON d.oid = l.database WHERE l.locktype = 'advisory' AND d.datname = ${database}`) as {
      pid: number;
    }[];
  return rows.map((r) => r.pid);
}

describe("one writer per session across processes", () => {
  test("a second writer is refused with the error naming the holder's host and pid", async () => {
    const url = await freshDatabase();
    await created(url);
    const second = storeOn(url);
    const error = await journalError(() => second.acquire("ses_pg"));
    expect(error.code).toBe("busy");
    expect(error.message).toContain(`pid ${process.pid} on ${hostname()}`);
    expect(await second.holder("ses_pg")).toEqual(thisProcess());
    expect((await journalError(() => second.append("ses_pg", 2, chunk("mine"), now()))).code).toBe("busy");
  });

  test("a writer whose connection was ended and who was taken over can append nothing more, even reconnected", async () => {
    const url = await freshDatabase();
    const first = await created(url);
    await first.append("ses_pg", 2, chunk("before"), now());
    const { admin } = await postgresServer();
    for (const pid of await lockBackends(url)) await admin`SELECT pg_terminate_backend(${pid})`;
    const second = storeOn(url);
    await second.acquire("ses_pg");
    await second.append("ses_pg", 3, chunk("the new writer"), now());
    const error = await journalError(() => first.append("ses_pg", 3, chunk("the old writer"), now()));
    expect(error.code).toBe("busy");
    expect(error.message).toContain(hostname());
    expect((await journalError(() => first.append("ses_pg", 4, chunk("and again"), now()))).code).toBe("busy");
    expect((await readAll(second, "ses_pg")).map((r) => r.fact)).toEqual([
      startFact(),
      chunk("before"),
      chunk("the new writer"),
    ]);
  });

  test("a writer whose lock connection dropped, with nobody taking over, locks again and goes on", async () => {
    const url = await freshDatabase();
    const first = await created(url);
    const { admin } = await postgresServer();
    for (const pid of await lockBackends(url)) await admin`SELECT pg_terminate_backend(${pid})`;
    await Bun.sleep(100);
    await first.append("ses_pg", 2, chunk("still mine"), now());
    expect((await lockBackends(url)).length).toBe(1);
    expect((await journalError(() => storeOn(url).acquire("ses_pg"))).code).toBe("busy");
  });

  test("a released session is free for another writer, and its old epoch is spent", async () => {
    const url = await freshDatabase();
    const first = await created(url);
    await first.release("ses_pg");
    const second = storeOn(url);
    await second.acquire("ses_pg");
    await second.append("ses_pg", 2, chunk("second"), now());
    expect((await journalError(() => first.append("ses_pg", 3, chunk("first"), now()))).code).toBe("busy");
  });
});

describe("durability, as SQLite's", () => {
  /** The `synchronous_commit` each fact's transaction commits with, as a trigger on the facts sees it. */
  async function commitModes(durability: Durability, server: "on" | "off"): Promise<string[]> {
    const url = await freshDatabase();
    const { admin } = await postgresServer();
    await admin.unsafe(`ALTER DATABASE ${new URL(url).pathname.slice(1)} SET synchronous_commit = ${server}`);
    const store = await created(url, "ses_pg", durability);
    const sql = new SQL(url, { max: 1 });
    try {
      await sql.unsafe(`CREATE TABLE probe (seq integer, mode text);
        CREATE FUNCTION probe() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN INSERT INTO probe VALUES (NEW.seq, current_setting('synchronous_commit')); RETURN NEW; END $$;
        CREATE TRIGGER probe AFTER INSERT ON verbatim.facts FOR EACH ROW EXECUTE FUNCTION probe();`);
      await store.append("ses_pg", 2, chunk("a"), now());
      await store.appendMany("ses_pg", 3, [{ fact: chunk("b"), at: now() }]);
      return ((await sql`SELECT mode FROM probe ORDER BY seq`) as { mode: string }[]).map((r) => r.mode);
    } finally {
      await sql.close();
    }
  }

  test("by default an append does not wait for the server's WAL flush (synchronous_commit off for its transaction)", async () => {
    expect(await commitModes("normal", "on")).toEqual(["off", "off"]);
  });

  test("strict: every append waits for it, even on a server that does not", async () => {
    expect(await commitModes("strict", "off")).toEqual(["on", "on"]);
  });
});

describe("connections the server ended", () => {
  test("a store whose idle connections the server ended appends on fresh ones, losing nothing", async () => {
    const url = await freshDatabase();
    const store = await created(url);
    const { admin } = await postgresServer();
    const database = new URL(url).pathname.slice(1);
    let seq = 2;
    for (let round = 0; round < 5; round++) {
      // Every pooled connection busy at once, so that the pool holds several, then all of them ended.
      await Promise.all([store.append("ses_pg", seq++, chunk("a"), now()), store.info("ses_pg")]);
      await Promise.all([store.info("ses_pg"), store.info("ses_pg"), store.info("ses_pg")]);
      await admin`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ${database} AND pid <> pg_backend_pid()`;
      await store.append("ses_pg", seq++, chunk("b"), now());
    }
    const records = await readAll(store, "ses_pg");
    expect(records.map((r) => r.seq)).toEqual(records.map((_, i) => i + 1));
    expect(records).toHaveLength(seq - 1);
  });
});

describe("failures name the server, never the password", () => {
  test("an unreachable server at start is a clear error naming host and port", async () => {
    const store = storeOn("postgres://someone:hunter2-Secret@127.0.0.1:1/verbatim");
    const error = await journalError(() => store.list({ limit: 1 }));
    expect(error.code).toBe("unreachable");
    expect(error.message).toContain("127.0.0.1:1");
    expect(error.message).not.toContain("hunter2-Secret");
  });

  test("a refused login names the server and not the password", async () => {
    const server = await postgresServer();
    const store = storeOn(`postgres://${server.user}:wrong-Secret-pw@127.0.0.1:${server.port}/postgres`);
    const error = await journalError(() => store.list({ limit: 1 }));
    expect(error.code).toBe("unreachable");
    expect(error.message).toContain(`127.0.0.1:${server.port}`);
    expect(error.message).not.toContain("wrong-Secret-pw");
    expect(JSON.stringify(error.details)).not.toContain("wrong-Secret-pw");
  });

  test("sslmode in the URL is honoured: require fails against a server without TLS, disable connects", async () => {
    const url = await freshDatabase();
    const required = await journalError(() => storeOn(`${url}?sslmode=require`).list({ limit: 1 }));
    expect(required.code).toBe("unreachable");
    expect(await storeOn(`${url}?sslmode=disable`).list({ limit: 1 })).toEqual([]);
  });
});

describe("the layout", () => {
  test("is created once by writers that start together, and recorded", async () => {
    const url = await freshDatabase();
    await Promise.all(["ses_a", "ses_b", "ses_c"].map((id) => created(url, id)));
    const sql = new SQL(url, { max: 1 });
    try {
      expect(await sql`SELECT value FROM verbatim.meta WHERE key = 'layout'`).toEqual([{ value: "1" }]);
    } finally {
      await sql.close();
    }
  });

  test("a database written by a newer verbatim is refused, for reading and for writing", async () => {
    const url = await freshDatabase();
    await created(url);
    const sql = new SQL(url, { max: 1 });
    await sql`UPDATE verbatim.meta SET value = '99' WHERE key = 'layout'`;
    await sql.close();
    expect((await journalError(() => storeOn(url).list({ limit: 1 }))).code).toBe("newer_database");
    const writer = storeOn(url);
    expect(
      (
        await journalError(() =>
          writer.create(
            { sessionId: "ses_new", cwd: "/w", additionalDirectories: [], createdAt: now(), updatedAt: now() },
            startFact(),
          ),
        )
      ).code,
    ).toBe("newer_database");
  });

  test("a reader that looked before any writer sees the sessions written afterwards", async () => {
    const url = await freshDatabase();
    const reader = storeOn(url);
    expect(await reader.info("ses_pg")).toBeUndefined();
    await created(url);
    expect((await reader.info("ses_pg"))?.cwd).toBe("/work");
    expect((await readAll(reader, "ses_pg")).length).toBe(1);
  });

  test("loading never writes: a reader on an empty database creates no layout", async () => {
    const url = await freshDatabase();
    const reader = storeOn(url);
    expect(await reader.list({ limit: 5 })).toEqual([]);
    expect(await reader.holder("ses_x")).toBeUndefined();
    const sql = new SQL(url, { max: 1 });
    try {
      expect(await sql`SELECT to_regclass('verbatim.meta') IS NULL AS absent`).toEqual([{ absent: true }]);
    } finally {
      await sql.close();
    }
  });
});
