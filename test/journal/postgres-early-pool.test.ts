/**
 * An agent whose journal is on a server opens its pool as it starts (postgres-pool.ts), so that
 * the login is done by the time the first session method reaches the store.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { openEarly, takeEarly } from "../../src/journal/postgres-pool.ts";
import { PostgresJournal } from "../../src/journal/postgres-store.ts";
import { parsePostgresUrl } from "../../src/journal/postgres-url.ts";
import { journalError } from "../support/journal.ts";
import { freshDatabase, postgresServer } from "../support/postgres-server.ts";

const stores: PostgresJournal[] = [];
afterAll(async () => {
  for (const store of stores) await store.close();
});

async function idleBackendsOn(database: string): Promise<number> {
  const { admin } = await postgresServer();
  const [row] =
    (await admin`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = ${database} AND state = 'idle'`) as {
      n: number;
    }[];
  return row?.n ?? 0;
}

describe("the pool opened at start", () => {
  test("is logged in before any store exists, and the first store on that URL takes it over", async () => {
    const url = await freshDatabase();
    const database = new URL(url).pathname.slice(1);
    openEarly(url);
    // Logged in and done with its first statement before any store exists.
    for (let i = 0; i < 200 && (await idleBackendsOn(database)) === 0; i++) await Bun.sleep(10);
    expect(await idleBackendsOn(database)).toBeGreaterThan(0);

    const store = new PostgresJournal(url);
    stores.push(store);
    expect(takeEarly(parsePostgresUrl(url), 4)).toBeUndefined();
    expect(await store.list({ limit: 1 })).toEqual([]);
  });

  test("is taken once: the next store opens a pool of its own", async () => {
    const url = await freshDatabase();
    openEarly(url);
    const first = new PostgresJournal(url);
    stores.push(first);
    expect(takeEarly(parsePostgresUrl(url), 4)).toBeUndefined();
  });

  test("is not taken by a store on another URL", async () => {
    const early = await freshDatabase();
    const other = await freshDatabase();
    openEarly(early);
    stores.push(new PostgresJournal(other));
    expect(takeEarly(parsePostgresUrl(early), 4)).toBeDefined();
  });

  test("against a server that is not there throws nothing, and the store's first statement reports it without the password", async () => {
    const url = "postgres://someone:early-Secret-pw@127.0.0.1:1/verbatim";
    expect(() => openEarly(url)).not.toThrow();
    const store = new PostgresJournal(url);
    stores.push(store);
    const error = await journalError(() => store.list({ limit: 1 }));
    expect(error.code).toBe("unreachable");
    expect(error.message).toContain("127.0.0.1:1");
    expect(error.message).not.toContain("early-Secret-pw");
  });

  test("is not opened for a journal that is not a server's URL", () => {
    openEarly("/var/lib/verbatim/journal.db");
    openEarly(undefined);
    expect(takeEarly(parsePostgresUrl("postgres://u@127.0.0.1:5432/verbatim"), 4)).toBeUndefined();
  });
});
