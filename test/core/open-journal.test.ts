/** Which store holds the journal, and how its URL is read: PostgreSQL when configured, else SQLite, and no password anywhere. */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { JournalError } from "../../src/journal/errors.ts";
import { journalUrl, openJournal } from "../../src/core/config/open-journal.ts";
import { PostgresJournal } from "../../src/journal/postgres-store.ts";
import { parsePostgresUrl, redactUrl, withoutSecret } from "../../src/journal/postgres-url.ts";
import { SqliteJournal } from "../../src/journal/sqlite-store.ts";
import { sandbox } from "../support/workspace.ts";

const userConfig = (env: Record<string, string>, config: unknown) => {
  const dir = join(env.XDG_CONFIG_HOME ?? join(env.HOME ?? "", ".config"), "verbatim");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "config.json"), JSON.stringify(config));
};

describe("choosing the journal's store", () => {
  test("SQLite under VERBATIM_HOME by default", async () => {
    const { env } = sandbox();
    const store = openJournal(env);
    expect(store).toBeInstanceOf(SqliteJournal);
    await store.close();
  });

  test("PostgreSQL with VERBATIM_JOURNAL, which wins over journal.url in the user config", async () => {
    const { env } = sandbox();
    userConfig(env, { journal: { url: "postgres://from-config@db.example:5432/verbatim" } });
    expect(journalUrl(env)).toBe("postgres://from-config@db.example:5432/verbatim");
    const store = openJournal({ ...env, VERBATIM_JOURNAL: "postgres://from-env@db.example:6543/v" });
    expect(store).toBeInstanceOf(PostgresJournal);
    expect((store as PostgresJournal).target.where).toBe("db.example:6543");
    await store.close();
  });

  test("a VERBATIM_JOURNAL that is not a postgres:// URL is an error that does not repeat its password", () => {
    const { env } = sandbox();
    let error: unknown;
    try {
      journalUrl({ ...env, VERBATIM_JOURNAL: "mysql://me:s3cret-pw@db/x" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(JournalError);
    expect((error as Error).message).toContain("postgres://");
    expect((error as Error).message).not.toContain("s3cret-pw");
  });
});

describe("the journal URL", () => {
  test("names host and port, and reads sslmode (prefer by default)", () => {
    expect(parsePostgresUrl("postgres://u:p@db.example/verbatim")).toMatchObject({
      host: "db.example",
      port: 5432,
      database: "verbatim",
      sslMode: "prefer",
      where: "db.example:5432",
    });
    expect(parsePostgresUrl("postgresql://u@[::1]:6000/v?sslmode=verify-full")).toMatchObject({
      host: "::1",
      port: 6000,
      sslMode: "verify-full",
      where: "[::1]:6000",
    });
  });

  test("an unknown sslmode is refused", () => {
    expect(() => parsePostgresUrl("postgres://u@h/v?sslmode=sometimes")).toThrow("sslmode");
  });

  test("the password is replaced wherever it appears", () => {
    const url = "postgres://me:p%40ss-Word1@db:5432/v";
    expect(redactUrl(url)).toBe("postgres://me:***@db:5432/v");
    expect(withoutSecret(`failed for ${url} (p@ss-Word1)`, url)).not.toContain("ss-Word1");
  });
});
