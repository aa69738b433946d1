/**
 * `bun bench/replay-cache.ts [--quick] [--runs N] [--sizes 10,500,10000] [--postgres]`: the replay cache.
 * For sessions of streamed turns written through the store API, each turn's cache row is stored
 * as the live writer stores it (ReplayCacheWriter, right after the turn's end: read the turn's
 * records back, project, serialize, seal, one transaction), timed per turn; then the session is
 * reopened in fresh processes with the cache, without it (VERBATIM_REPLAY_CACHE=off), and as
 * another machine's user would (another config folder, so another seal key: the rows are not this
 * user's, and the load replays the facts), interleaved, against the read floor. Prints a table and the figures as JSON on stdout. With
 * `--postgres`, the sessions are in a PostgreSQL journal (an embedded server on a loopback port,
 * PostgreSQL's default durability) and there is no read floor; the same sessions are also
 * written to a SQLite journal and loaded from the cache interleaved with the PostgreSQL loads, so
 * that the two slopes compare in one run.
 */
import { foldLog } from "./lib/fold-log.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { replaySeal } from "../src/core/replay-cache/replay-seal.ts";
import { PostgresJournal } from "../src/journal/postgres-store.ts";
import { SqliteJournal } from "../src/journal/sqlite-store.ts";
import type { JournalStore } from "../src/journal/store.ts";
import { freshDatabase, startPostgres } from "../test/support/postgres-server.ts";
import { buildAll } from "./lib/agents.ts";
import { writeWithCache } from "./lib/write-cached.ts";
import { linearFit, median, quantile } from "./lib/stats.ts";
import { ENGINE_LOADED_MS, floorRead, loadOnce } from "./reopen.ts";

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const quick = args.includes("--quick");
const postgres = args.includes("--postgres");
const runs = Number(option("runs") ?? (quick ? 3 : 7));
const sizes = (option("sizes") ?? (quick ? "10,500,1000" : "10,100,500,1000,10000")).split(",").map(Number);
const log = (message: string) => process.stderr.write(`replay-cache: ${message}\n`);

const build = buildAll();
const home = mkdtempSync(join(tmpdir(), "verbatim-bench-cache-"));
const cwd = join(home, "project");
const path = join(home, "journal.db");
const server = postgres ? await startPostgres({ durable: true }) : undefined;
try {
  log(`writing sessions of ${sizes.join(", ")} turns, each turn's cache row stored at its end`);
  const url = server ? await freshDatabase(server) : undefined;
  const journal: JournalStore = url ? new PostgresJournal(url) : new SqliteJournal(path);
  // The user's config folder (the replay cache's seal key) is the run's own, for the writer here and the loads alike.
  const user = { VERBATIM_HOME: home, XDG_CONFIG_HOME: join(home, "config") };
  const env: Record<string, string> = url ? { ...user, VERBATIM_JOURNAL: url } : user;
  const seal = replaySeal(env);
  const writeCosts = new Map<number, number[]>();
  for (const turns of sizes) writeCosts.set(turns, await writeWithCache(journal, seal, `ses_${turns}`, cwd, turns));
  // With PostgreSQL, the same sessions in SQLite too: the slopes are compared in this run.
  if (url) {
    const beside = new SqliteJournal(path);
    for (const turns of sizes) await writeWithCache(beside, seal, `ses_${turns}`, cwd, turns);
    await beside.close();
  }
  const storage = new Map<number, { cacheBytes: number; factBytes: number }>();
  for (const turns of sizes) storage.set(turns, await journal.replayCacheSize(`ses_${turns}`));
  await journal.close();
  // The SQLite journal (the one measured, or the one beside PostgreSQL) as a clean close leaves it.
  foldLog(path);

  const rows = [];
  for (const turns of sizes) {
    const sessionId = `ses_${turns}`;
    log(`reopening ${turns} turns (${runs} runs each way)`);
    const cached: number[] = [];
    const cachedFirst: number[] = [];
    const facts: number[] = [];
    const factsFirst: number[] = [];
    // The rows sealed by another machine's key: what a load of a session another machine wrote costs.
    const otherKey: number[] = [];
    const floors: number[] = [];
    // The full agent answering initialize too: a load's request then finds the agent loaded.
    const loaded: number[] = [];
    const fromSpawn: number[] = [];
    const loadedFromSpawn: number[] = [];
    const sqliteCached: number[] = [];
    // The load sent once the engine has loaded in the background (the client waited after initialize).
    const warm: number[] = [];
    let updates = 0;
    for (let i = 0; i < runs; i++) {
      const c = await loadOnce(build.verbatim, env, sessionId, cwd);
      cached.push(c.ms);
      cachedFirst.push(c.firstUpdateMs);
      fromSpawn.push(c.fromSpawnMs);
      updates = c.updates;
      const l = await loadOnce(build.verbatim, { ...env, VERBATIM_EARLY_INITIALIZE: "off" }, sessionId, cwd);
      loaded.push(l.ms);
      loadedFromSpawn.push(l.fromSpawnMs);
      warm.push((await loadOnce(build.verbatim, env, sessionId, cwd, ENGINE_LOADED_MS)).ms);
      if (url) sqliteCached.push((await loadOnce(build.verbatim, user, sessionId, cwd)).ms);
      otherKey.push(
        (await loadOnce(build.verbatim, { ...env, XDG_CONFIG_HOME: join(home, "config-other") }, sessionId, cwd)).ms,
      );
      const f = await loadOnce(build.verbatim, { ...env, VERBATIM_REPLAY_CACHE: "off" }, sessionId, cwd);
      facts.push(f.ms);
      factsFirst.push(f.firstUpdateMs);
      floors.push(url ? Number.NaN : floorRead(build.readFloor, path, sessionId).ms);
    }
    const costs = writeCosts.get(turns) ?? [];
    const size = storage.get(turns) ?? { cacheBytes: 0, factBytes: 0 };
    rows.push({
      turns,
      updates,
      loadCachedMs: median(cached),
      loadCachedAgentLoadedMs: median(loaded),
      loadCachedEngineLoadedMs: median(warm),
      sqliteLoadCachedMs: url ? median(sqliteCached) : Number.NaN,
      loadCachedFromSpawnMs: median(fromSpawn),
      loadCachedAgentLoadedFromSpawnMs: median(loadedFromSpawn),
      loadFactsMs: median(facts),
      loadOtherKeyMs: median(otherKey),
      firstUpdateCachedMs: median(cachedFirst),
      firstUpdateFactsMs: median(factsFirst),
      floorMs: median(floors),
      writeP50Ms: quantile(costs, 0.5),
      writeP99Ms: quantile(costs, 0.99),
      cacheBytes: size.cacheBytes,
      factBytes: size.factBytes,
      cacheOverFacts: size.cacheBytes / size.factBytes,
    });
  }
  const fit = linearFit(
    rows.map((r) => r.turns),
    rows.map((r) => r.loadCachedMs),
  );
  process.stderr.write(
    "| turns | updates | load, cache (agent loaded at initialize) | load, cache, engine loaded | from spawn (agent loaded at initialize) | load, facts | load, another key's rows | first update, cache / facts | read floor | cache write at turn end p50 / p99 | cache / facts bytes |\n|---|---|---|---|---|---|---|---|---|---|---|\n",
  );
  for (const r of rows) {
    process.stderr.write(
      `| ${r.turns} | ${r.updates} | ${r.loadCachedMs.toFixed(1)} (${r.loadCachedAgentLoadedMs.toFixed(1)}) ms | ${r.loadCachedEngineLoadedMs.toFixed(1)} ms | ${r.loadCachedFromSpawnMs.toFixed(1)} (${r.loadCachedAgentLoadedFromSpawnMs.toFixed(1)}) ms | ${r.loadFactsMs.toFixed(1)} ms | ${r.loadOtherKeyMs.toFixed(1)} ms | ${r.firstUpdateCachedMs.toFixed(1)} / ${r.firstUpdateFactsMs.toFixed(1)} ms | ${r.floorMs.toFixed(1)} ms | ${r.writeP50Ms.toFixed(2)} / ${r.writeP99Ms.toFixed(2)} ms | ${(r.cacheBytes / 1e6).toFixed(1)} / ${(r.factBytes / 1e6).toFixed(1)} MB (${(100 * r.cacheOverFacts).toFixed(0)}%) |\n`,
    );
  }
  process.stderr.write(
    `reopen with the cache: ${(fit.slope * 1000).toFixed(1)} ms per 1,000 turns, r² = ${fit.r2.toFixed(3)}\n`,
  );
  const sqliteFit = url
    ? linearFit(
        rows.map((r) => r.turns),
        rows.map((r) => r.sqliteLoadCachedMs),
      )
    : undefined;
  if (sqliteFit)
    process.stderr.write(
      `the same sessions from SQLite, interleaved: ${(sqliteFit.slope * 1000).toFixed(1)} ms per 1,000 turns (${rows.map((r) => `${r.turns}: ${r.sqliteLoadCachedMs.toFixed(1)} ms`).join(", ")}); PostgreSQL / SQLite: ${(fit.slope / sqliteFit.slope).toFixed(2)}x\n`,
    );
  process.stdout.write(
    `${JSON.stringify({ runs, rows, msPerThousandTurns: fit.slope * 1000, linearR2: fit.r2, ...(sqliteFit ? { sqliteMsPerThousandTurns: sqliteFit.slope * 1000, slopeOverSqlite: fit.slope / sqliteFit.slope } : {}) }, null, 2)}\n`,
  );
} finally {
  await server?.stop();
  rmSync(home, { recursive: true, force: true });
  build.dispose();
}
