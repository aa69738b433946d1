/**
 * `verbatim prune --older-than AGE [--dry-run]`: whole sessions whose last record is older than
 * AGE go (their facts, blobs, replay cache rows and subagent sessions), except one a live process
 * holds; the SQLite file then shrinks. `--dry-run` deletes nothing.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { statSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { runCli } from "../support/cli-process.ts";
import { initializedRawAgent, type RawAgent } from "../support/raw-client.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";

const LONG_AGO = "2020-01-01T00:00:00.000Z";

let box: Sandbox;
let old: string;
let child: string;
let young: string;
let held: string;
let writer: RawAgent;

/** Rows of a table that belong to these sessions. */
function count(table: string, ids: string[]): number {
  const db = new Database(join(box.home, "journal.db"), { readonly: true });
  try {
    const marks = ids.map(() => "?").join(", ");
    return (
      db.query<{ n: number }, string[]>(`SELECT COUNT(*) AS n FROM ${table} WHERE session_id IN (${marks})`).get(...ids)
        ?.n ?? 0
    );
  } finally {
    db.close();
  }
}

/**
 * Makes a session look as if its last record were written long ago: its row's time of last
 * activity, which the store keeps as its last record's time (the facts themselves cannot change).
 */
function age(ids: string[]): void {
  const db = new Database(join(box.home, "journal.db"));
  // The writer agent may still be storing its turn's replay cache: wait for its write, as the store does.
  db.run("PRAGMA busy_timeout = 10000");
  try {
    for (const id of ids) db.run("UPDATE sessions SET updated_at = ? WHERE session_id = ?", [LONG_AGO, id]);
  } finally {
    db.close();
  }
}

const journalBytes = () =>
  ["journal.db", "journal.db-wal"].reduce(
    (sum, f) => sum + (statSync(join(box.home, f), { throwIfNoEntry: false })?.size ?? 0),
    0,
  );

/** A session recorded by an agent process, with the replay cache it stores at the turn's end; the process then ends. */
async function recorded(model: string, prompt: unknown[]): Promise<string> {
  const agent = await initializedRawAgent({ ...box.env, VERBATIM_MODEL: model });
  try {
    const created = await agent.request("session/new", { cwd: box.workspace, mcpServers: [] });
    const sessionId = (created.result as { sessionId: string }).sessionId;
    await agent.request("session/prompt", { sessionId, prompt });
    // The writer stores the turn's cache rows off the turn's path: wait for them before ending it.
    for (let i = 0; i < 200 && count("replay_cache", [sessionId]) === 0; i++) await Bun.sleep(25);
    return sessionId;
  } finally {
    agent.endInput();
    await agent.exited;
  }
}

beforeAll(async () => {
  box = sandbox("scripted/subagent");
  // A long attachment: its text is stored as a blob.
  const notes = { uri: "file:///notes.txt", text: "notes of the project ".repeat(20_000) };
  old = await recorded("scripted/subagent", [
    { type: "text", text: "Inspect it" },
    { type: "resource", resource: notes },
  ]);
  const db = new Database(join(box.home, "journal.db"), { readonly: true });
  child = db
    .query<{ id: string }, [string]>("SELECT session_id AS id FROM sessions WHERE parent_session_id = ?")
    .get(old)?.id as string;
  db.close();
  young = await recorded("scripted/plain", [{ type: "text", text: "Hello" }]);
  writer = await initializedRawAgent({ ...box.env, VERBATIM_MODEL: "scripted/plain" });
  const created = await writer.request("session/new", { cwd: box.workspace, mcpServers: [] });
  held = (created.result as { sessionId: string }).sessionId;
  await writer.request("session/prompt", { sessionId: held, prompt: [{ type: "text", text: "hello" }] });
  age([old, child, held]);
});

describe("verbatim prune", () => {
  test("the old session has what prune must take: facts, a blob, replay cache rows, a subagent session", () => {
    expect(child).toMatch(/^ses_/);
    for (const table of ["facts", "blobs", "replay_cache"]) expect(count(table, [old])).toBeGreaterThan(0);
    expect(count("facts", [child])).toBeGreaterThan(0);
  });

  test("--dry-run names what would go and what is kept, and deletes nothing", async () => {
    const facts = count("facts", [old, child, young, held]);
    const r = await runCli(["prune", "--older-than", "30d", "--dry-run"], box.env);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines).toContainEqual(
      expect.stringMatching(new RegExp(`^would delete ${old}  2020-01-01 +\\d+\\.\\d (KiB|MiB)  Inspect it`)),
    );
    expect(lines).toContainEqual(`kept    ${held}: pid ${writer.pid} on ${hostname()} holds it`);
    expect(r.stdout).not.toContain(young);
    expect(lines.at(-1)).toMatch(
      /^1 session last written before .* would be deleted \(.* of records\); nothing was deleted$/,
    );
    expect(count("facts", [old, child, young, held])).toBe(facts);
  });

  test("deletes the old session whole, keeps the young and the held one, and the file shrinks", async () => {
    const before = journalBytes();
    const r = await runCli(["prune", "--older-than", "30d"], box.env);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^deleted ${old} `, "m"));
    expect(r.stdout).toMatch(/^1 session last written before .* deleted \(.*\); the journal went from .* to .*$/m);
    for (const table of ["facts", "blobs", "replay_cache", "replay_state", "sessions", "leases"])
      expect(count(table, [old, child])).toBe(0);
    expect(count("facts", [young])).toBeGreaterThan(0);
    expect(count("facts", [held])).toBeGreaterThan(0);
    expect(journalBytes()).toBeLessThan(before);
    expect((await runCli(["show", young], box.env)).code).toBe(0);
  });

  test("an age it cannot read is a usage error", async () => {
    const r = await runCli(["prune", "--older-than", "a month"], box.env);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'verbatim: --older-than takes an age such as 30d, 12h or 2w (hours, days, weeks), not "a month"\n',
    );
    expect((await runCli(["prune"], box.env)).code).toBe(2);
  });
});

describe("once its process ends", () => {
  test("the session it held goes too", async () => {
    writer.endInput();
    await writer.exited;
    const r = await runCli(["prune", "--older-than", "30d"], box.env);
    expect(r.stdout).toMatch(new RegExp(`^deleted ${held} `, "m"));
    expect(count("facts", [held])).toBe(0);
  });
});
