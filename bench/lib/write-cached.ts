/**
 * `bun bench/lib/write-cached.ts JOURNAL CWD SIZES`: writes sessions of streamed turns (ids
 * `ses_<turns>`, SIZES comma-separated) into the SQLite journal at JOURNAL, each turn's replay
 * cache row stored at its end as the live writer stores it, sealed with the key of the
 * environment's config folder; then folds the write-ahead log into the file. Run with the
 * checkout's own Bun and from the checkout whose code is to write them: bench/load-guard.ts copies
 * it into the base checkout, so that each build loads a journal its own code wrote (so it imports
 * only what every checkout it is copied into has). bench/replay-cache.ts writes with
 * `writeWithCache`.
 */
import { ReplayCacheWriter } from "../../src/core/replay-cache/replay-cache-writer.ts";
import { replaySeal, type ReplaySeal } from "../../src/core/replay-cache/replay-seal.ts";
import { SqliteJournal } from "../../src/journal/sqlite-store.ts";
import type { JournalStore } from "../../src/journal/store.ts";
import { STREAMED_TURN, startFact, turnFacts } from "./facts.ts";
import { foldLog } from "./fold-log.ts";

/** Writes a session turn by turn, storing each turn's cache row as the writer does; returns the per-turn store times (ms). */
export async function writeWithCache(
  journal: JournalStore,
  seal: ReplaySeal,
  sessionId: string,
  cwd: string,
  turns: number,
): Promise<number[]> {
  const at = new Date(Date.UTC(2026, 0, 1)).toISOString();
  await journal.create({ sessionId, cwd, additionalDirectories: [], createdAt: at, updatedAt: at }, startFact(cwd));
  const writer = new ReplayCacheWriter(journal, sessionId, { notices: false, compaction: false }, seal);
  let seq = 2;
  const costs: number[] = [];
  for (let t = 0; t < turns; t++) {
    const records = await journal.appendMany(
      sessionId,
      seq,
      turnFacts(t, cwd, STREAMED_TURN).map((fact) => ({ fact, at })),
    );
    seq += records.length;
    const t0 = performance.now();
    for (const record of records) writer.observe(record);
    await writer.settled();
    costs.push(performance.now() - t0);
  }
  return costs;
}

if (import.meta.main) {
  const [path, cwd, sizes] = process.argv.slice(2);
  if (!path || !cwd || !sizes) throw new Error("usage: bun bench/lib/write-cached.ts JOURNAL CWD SIZES");
  const journal = new SqliteJournal(path);
  const seal = replaySeal(process.env);
  for (const turns of sizes.split(",").map(Number)) await writeWithCache(journal, seal, `ses_${turns}`, cwd, turns);
  await journal.close();
  foldLog(path);
}
