/**
 * Golden journals (test/fixtures/journals/): sessions recorded once, stored as the raw database
 * rows they were written as, with the view a client folds from loading them and the model
 * conversation they fold to. Rows go in and out with plain SQL: the encoder and decoder under
 * test never touch them on the way in. Shared by the generator and the test.
 */
import { SQL } from "bun";
import { Database } from "bun:sqlite";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ClientCapabilities } from "@agentclientprotocol/sdk";
import type { Fact } from "../../src/journal/facts/index.ts";
import { journalFile } from "../../src/journal/paths.ts";
import { PG_LAYOUT_VERSION, upgrades } from "../../src/journal/postgres-schema.ts";
import { LAYOUT_VERSION, layoutSql } from "../../src/journal/sqlite-schema.ts";
import { SqliteJournal } from "../../src/journal/sqlite-store.ts";
import { conversation } from "../../src/replay/conversation.ts";
import type { ViewModel } from "../../src/view/view-model.ts";
import { connectProcess, load } from "./acp-session.ts";

export const GOLDEN_ROOT = join(import.meta.dir, "..", "fixtures", "journals");

/** The tables a golden holds rows of, in the order they are imported. */
const TABLES = ["sessions", "blobs", "facts"] as const;
type Table = (typeof TABLES)[number];
export type GoldenRow = { table: Table; row: Record<string, string | number | null> };

export type GoldenMeta = {
  name: string;
  description: string;
  /** The session loaded; other sessions in the rows are its subagents' children. */
  sessionId: string;
  cwd: string;
  /** Every session whose rows are stored. */
  sessions: string[];
  /** The fact kinds in the rows (every session). */
  kinds: string[];
  recordVersion: number;
  layoutVersion: number;
  agentVersion: string;
  createdAt: string;
  /** What the loading client advertised (the view depends on it). */
  loadCapabilities: ClientCapabilities;
  /** Whether the loaded view was checked equal to the view folded live when it was recorded. */
  liveParity: boolean;
  /** SHA-256 of rows.jsonl: goldens are never edited. */
  rowsSha256: string;
};

export type Golden = {
  dir: string;
  meta: GoldenMeta;
  rowsText: string;
  rows: GoldenRow[];
  expectedView: unknown;
  expectedConversation: unknown;
};

export const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** The golden directories, by name. */
export function goldenNames(): string[] {
  if (!existsSync(GOLDEN_ROOT)) return [];
  return readdirSync(GOLDEN_ROOT, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(GOLDEN_ROOT, d.name, "meta.json")))
    .map((d) => d.name)
    .sort();
}

export function readGolden(name: string): Golden {
  const dir = join(GOLDEN_ROOT, name);
  const json = (file: string): unknown => JSON.parse(readFileSync(join(dir, file), "utf8"));
  const rowsText = readFileSync(join(dir, "rows.jsonl"), "utf8");
  return {
    dir,
    meta: json("meta.json") as GoldenMeta,
    rowsText,
    rows: parseRows(rowsText),
    expectedView: json("expected-view.json"),
    expectedConversation: json("expected-conversation.json"),
  };
}

export function parseRows(text: string): GoldenRow[] {
  return text
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as GoldenRow);
}

/** One row a line, in import order: sessions, then blobs, then facts by session and sequence. */
export function rowsText(rows: GoldenRow[]): string {
  return rows.map((r) => `${JSON.stringify(r)}\n`).join("");
}

/** The rows of `sessionIds` exactly as stored (every column, as SQLite returns it). */
export function exportRows(dbPath: string, sessionIds: string[]): GoldenRow[] {
  const db = new Database(dbPath, { readonly: true });
  try {
    const marks = sessionIds.map(() => "?").join(", ");
    const order: Record<Table, string> = {
      sessions: "created_at, session_id",
      blobs: "session_id, sha256",
      facts: "session_id, seq",
    };
    return TABLES.flatMap((table) =>
      db
        .query<Record<string, string | number | null>, string[]>(
          `SELECT * FROM ${table} WHERE session_id IN (${marks}) ORDER BY ${order[table]}`,
        )
        .all(...sessionIds)
        .map((row) => ({ table, row })),
    );
  } finally {
    db.close();
  }
}

/** A fresh journal at `home` holding exactly `rows`, inserted as they are (no encoder). */
export function importRows(home: string, rows: GoldenRow[]): string {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const path = journalFile(home);
  const db = new Database(path, { create: true, readwrite: true });
  try {
    db.run("PRAGMA journal_mode = WAL");
    db.transaction(() => {
      db.run(layoutSql);
      db.run("INSERT INTO meta (key, value) VALUES ('layout', ?)", [String(LAYOUT_VERSION)]);
      for (const table of TABLES) {
        for (const { row } of rows.filter((r) => r.table === table)) {
          const columns = Object.keys(row);
          db.query(`INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`).run(
            ...columns.map((c) => row[c] ?? null),
          );
        }
      }
    })();
  } finally {
    db.close();
  }
  return path;
}

/**
 * A fresh PostgreSQL journal (the database at `url`, empty) holding exactly `rows`, inserted as
 * they are (no encoder): the same columns as SQLite's, in the verbatim schema.
 */
export async function importRowsToPostgres(url: string, rows: GoldenRow[]): Promise<void> {
  const sql = new SQL(url, { max: 1 });
  try {
    await sql.begin(async (tx) => {
      for (const upgrade of upgrades) await tx.unsafe(upgrade);
      await tx`INSERT INTO verbatim.meta (key, value) VALUES ('layout', ${String(PG_LAYOUT_VERSION)})`;
      for (const table of TABLES) {
        for (const { row } of rows.filter((r) => r.table === table)) {
          const columns = Object.keys(row);
          await tx.unsafe(
            `INSERT INTO verbatim.${table} (${columns.join(", ")}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(", ")})`,
            columns.map((c) => row[c] ?? null),
          );
        }
      }
    });
  } finally {
    await sql.close();
  }
}

/** Loads `sessionId` through a freshly spawned verbatim and returns the view its client folded. */
export async function loadedView(
  env: Record<string, string>,
  sessionId: string,
  cwd: string,
  capabilities: ClientCapabilities,
): Promise<ViewModel> {
  const view = (await loadedViews(env, [{ sessionId, cwd }], capabilities)).get(sessionId);
  if (view instanceof Error) throw view;
  return view as ViewModel;
}

/**
 * Loads each session, one after another, through one freshly spawned verbatim; returns the view
 * its client folded for each, or the error its load failed with.
 */
export async function loadedViews(
  env: Record<string, string>,
  sessions: { sessionId: string; cwd: string }[],
  capabilities: ClientCapabilities,
): Promise<Map<string, ViewModel | Error>> {
  const client = await connectProcess(env, { capabilities });
  const views = new Map<string, ViewModel | Error>();
  try {
    for (const { sessionId, cwd } of sessions) {
      try {
        await load(client.ctx, sessionId, cwd);
        views.set(sessionId, client.client.view(sessionId));
      } catch (error) {
        views.set(sessionId, error instanceof Error ? error : new Error(JSON.stringify(error)));
      }
    }
    return views;
  } finally {
    await client.close();
  }
}

/** The facts of a session as the store reads them. */
export function storedFacts(home: string, sessionId: string): Fact[] {
  const journal = new SqliteJournal(journalFile(home));
  try {
    return [...journal.read(sessionId)].map((r) => r.fact);
  } finally {
    journal.close();
  }
}

/** The model conversation a session's facts fold to, as JSON would carry it. */
export const conversationOf = (facts: Fact[]): unknown => JSON.parse(JSON.stringify(conversation(facts)));

/** A value as JSON would carry it (undefined members dropped). */
export const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));
