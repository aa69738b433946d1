/**
 * The journal stores under one contract: each test of test/journal/store-contract.test.ts runs
 * against SQLite and against PostgreSQL (the run's server, a database of the test's own).
 */
import { SQL } from "bun";
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { PostgresJournal } from "../../src/journal/postgres-store.ts";
import { SqliteJournal } from "../../src/journal/sqlite-store.ts";
import type { JournalStore } from "../../src/journal/store.ts";
import { freshDatabase } from "./postgres-server.ts";
import { sandbox } from "./workspace.ts";

export type StoreKind = "sqlite" | "postgres";
export const storeKinds: StoreKind[] = ["sqlite", "postgres"];

export type StoreUnderTest = {
  store: JournalStore;
  /** Runs a statement on the store's database directly (around the store): the database's own guards answer. */
  raw(statement: string): Promise<void>;
  /** A store of its own on the same journal, as another process opens it (closed with this one). */
  another(): JournalStore;
  /** The environment that makes the agent use this store. */
  env: Record<string, string>;
  close(): Promise<void>;
};

export async function storeUnderTest(kind: StoreKind): Promise<StoreUnderTest> {
  if (kind === "sqlite") {
    const box = sandbox();
    const path = join(box.home, "journal.db");
    const store = new SqliteJournal(path);
    const others: JournalStore[] = [];
    return {
      store,
      another: () => {
        const other = new SqliteJournal(path);
        others.push(other);
        return other;
      },
      env: { VERBATIM_HOME: box.home },
      raw: async (statement) => {
        const db = new Database(path);
        try {
          db.run(statement);
        } finally {
          db.close();
        }
      },
      close: async () => {
        await Promise.all(others.map((other) => other.close()));
        await store.close();
      },
    };
  }
  const url = await freshDatabase();
  const store = new PostgresJournal(url);
  const others: JournalStore[] = [];
  return {
    store,
    another: () => {
      const other = new PostgresJournal(url);
      others.push(other);
      return other;
    },
    env: { VERBATIM_JOURNAL: url },
    raw: async (statement) => {
      const sql = new SQL(url, { max: 1 });
      try {
        await sql.unsafe(statement.replaceAll(/\b(facts|blobs|sessions)\b/g, "verbatim.$1"));
      } finally {
        await sql.close();
      }
    },
    close: async () => {
      await Promise.all(others.map((other) => other.close()));
      await store.close();
    },
  };
}
