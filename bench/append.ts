/**
 * Append throughput: facts per second into the journal through its store API (lease check,
 * sequence guard, commit per fact), with the default durability and with strict (fsync per
 * append). The floor is the same rows inserted with bun:sqlite, one committed transaction per
 * row, into the same database layout with the same settings.
 */
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { encodeFact } from "../src/journal/codec.ts";
import { layoutSql } from "../src/journal/sqlite-schema.ts";
import { SqliteJournal } from "../src/journal/sqlite-store.ts";
import type { Durability } from "../src/journal/store.ts";
import { now } from "./lib/clock.ts";
import { chunkFact, startFact } from "./lib/facts.ts";

export type AppendRun = { facts: number; perSecond: number; floorPerSecond: number; ratio: number };
export type Append = { normal: AppendRun; strict: AppendRun };

async function journalRate(dir: string, durability: Durability, count: number): Promise<number> {
  const journal = new SqliteJournal(join(dir, `journal-${files++}.db`), durability);
  const at = new Date().toISOString();
  await journal.create(
    { sessionId: "ses_bench", cwd: dir, additionalDirectories: [], createdAt: at, updatedAt: at },
    startFact(dir),
  );
  const t0 = now();
  for (let i = 0; i < count; i++) await journal.append("ses_bench", i + 2, chunkFact(i), new Date().toISOString());
  const ms = now() - t0;
  await journal.close();
  return (count / ms) * 1000;
}

let files = 0;

function floorRate(dir: string, durability: Durability, count: number): number {
  const db = new Database(join(dir, `floor-${files++}.db`), { create: true, strict: true });
  db.run("PRAGMA journal_mode = WAL");
  db.run(`PRAGMA synchronous = ${durability === "strict" ? "FULL" : "NORMAL"}`);
  db.run(layoutSql);
  const insert = db.prepare("INSERT INTO facts (session_id, seq, kind, v, at, body) VALUES (?, ?, ?, ?, ?, ?)");
  const rows = Array.from({ length: count }, (_, i) => encodeFact(chunkFact(i)));
  const t0 = now();
  for (let i = 0; i < count; i++) {
    const e = rows[i] as (typeof rows)[number];
    insert.run("ses_bench", i + 1, e.kind, e.v, new Date().toISOString(), e.body);
  }
  const ms = now() - t0;
  db.close();
  return (count / ms) * 1000;
}

export async function append(
  counts: { normal: number; strict: number } = { normal: 20_000, strict: 1_000 },
): Promise<Append> {
  const dir = mkdtempSync(join(tmpdir(), "verbatim-bench-append-"));
  try {
    const run = async (durability: Durability, count: number): Promise<AppendRun> => {
      floorRate(dir, durability, Math.min(count, 500));
      await journalRate(dir, durability, Math.min(count, 500));
      const floorPerSecond = floorRate(dir, durability, count);
      const perSecond = await journalRate(dir, durability, count);
      return { facts: count, perSecond, floorPerSecond, ratio: perSecond / floorPerSecond };
    };
    return { normal: await run("normal", counts.normal), strict: await run("strict", counts.strict) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) console.log(await append());
