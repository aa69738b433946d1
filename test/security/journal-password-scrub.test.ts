/**
 * The journal's PostgreSQL password never reaches the model's commands, whatever variable holds a
 * copy of it: with the journal on a server (its URL in VERBATIM_JOURNAL or in the user config's
 * `journal.url`), `env` through Bash journals no PGPASSWORD, no DATABASE_URL holding the URL, no
 * variable holding the password, while the variables that are no secret are still there.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PostgresJournal } from "../../src/journal/postgres-store.ts";
import { readAll } from "../../src/journal/store.ts";
import { lastJsonLine, runCli } from "../support/cli-process.ts";
import { freshDatabase, postgresServer } from "../support/postgres-server.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";

/** `env` run through Bash by the scripted model; the session's facts as the journal holds them. */
async function envThroughBash(box: Sandbox, env: Record<string, string>, url: string): Promise<string> {
  const r = await runCli(["run", "--json", "--cwd", box.workspace, "--approve", "all", "env"], env);
  expect(r.code).toBe(0);
  const { sessionId } = lastJsonLine(r.stdout) as { sessionId: string };
  const store = new PostgresJournal(url);
  try {
    return JSON.stringify(await readAll(store, sessionId)) + r.stdout;
  } finally {
    await store.close();
  }
}

describe("the journal's password and the model's commands", () => {
  test("with VERBATIM_JOURNAL set, copies of its password or URL under other names are not in a command's environment", async () => {
    const server = await postgresServer();
    const url = await freshDatabase(server);
    const box = sandbox("scripted/command");
    const copies = {
      PGPASSWORD: server.password,
      DATABASE_URL: url,
      APP_DSN: `host=db password=${server.password} sslmode=disable`,
    };

    const journal = await envThroughBash(
      box,
      { ...box.env, VERBATIM_JOURNAL: url, ...copies, VISIBLE_CANARY: "plain-value-still-there" },
      url,
    );

    // The command ran, and a variable that is no secret is in what it printed.
    expect(journal).toContain("VISIBLE_CANARY=plain-value-still-there");
    expect(journal).toContain("PAGER=cat");
    expect(journal.includes(server.password)).toBe(false);
    for (const name of [...Object.keys(copies), "VERBATIM_JOURNAL"])
      expect({ name, found: journal.includes(`${name}=`) }).toEqual({ name, found: false });
  });

  test("with the journal's URL in the user config, a copy of it in DATABASE_URL is not in a command's environment", async () => {
    const server = await postgresServer();
    const url = await freshDatabase(server);
    const box = sandbox("scripted/command");
    mkdirSync(join(box.configHome, "verbatim"), { recursive: true, mode: 0o700 });
    writeFileSync(join(box.configHome, "verbatim", "config.json"), JSON.stringify({ journal: { url } }), {
      mode: 0o600,
    });

    const journal = await envThroughBash(box, { ...box.env, DATABASE_URL: url, VISIBLE_CANARY: "still-there" }, url);

    expect(journal).toContain("VISIBLE_CANARY=still-there");
    expect(journal.includes(server.password)).toBe(false);
    expect(journal.includes("DATABASE_URL=")).toBe(false);
  });
});
