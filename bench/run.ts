/**
 * `bun run bench`: builds verbatim and the floors, runs every benchmark, prints a table and
 * writes bench/results.json. Every figure is compared with a floor measured in the same run, on
 * the same machine, a few seconds apart: absolute times on shared machines are noisy, ratios
 * much less so.
 *
 * usage: bun bench/run.ts [--quick]   (--quick: fewer runs and sessions up to 1,000 turns)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { append } from "./append.ts";
import { backToBack } from "./back-to-back.ts";
import { coldStart } from "./cold-start.ts";
import { buildAll, ROOT } from "./lib/agents.ts";
import { WHOLE_TURN } from "./lib/facts.ts";
import { live } from "./live.ts";
import { postgresBench } from "./postgres.ts";
import { reopen } from "./reopen.ts";
import { targets, table } from "./report.ts";

const quick = process.argv.includes("--quick");
const log = (message: string) => process.stderr.write(`bench: ${message}\n`);

const started = new Date().toISOString();
const load = loadavg();
log("building dist/verbatim.js and the floors");
const build = buildAll();
const home = mkdtempSync(join(tmpdir(), "verbatim-bench-home-"));
const env = { VERBATIM_HOME: home };
try {
  log("cold start");
  const cold = await coldStart(build, env, quick ? 8 : 20);
  log("live streaming");
  const stream = await live(
    build,
    env,
    quick
      ? { chunks: 5_000, runs: 1, pacedChunks: 500, pauseMs: 1 }
      : { chunks: 20_000, runs: 3, pacedChunks: 2_000, pauseMs: 1 },
  );
  log("append throughput");
  const appended = await append(quick ? { normal: 5_000, strict: 300 } : { normal: 20_000, strict: 1_000 });
  log("turns back to back (the write-ahead log)");
  const turns = await backToBack(build.verbatim, 500, quick ? 3 : 5);
  log("reopen at scale (generating sessions)");
  const sizes = quick ? [10, 100, 500, 1_000] : [10, 100, 500, 1_000, 10_000];
  const reopened = await reopen(build.verbatim, build.readFloor, sizes, quick ? 1 : 3);
  log("reopen at scale, whole turns (generating sessions)");
  const reopenedWhole = await reopen(build.verbatim, build.readFloor, sizes, quick ? 1 : 3, WHOLE_TURN);
  log("PostgreSQL beside SQLite (starting a server)");
  const postgres = await postgresBench(
    build.verbatim,
    quick ? { sizes: [10, 500], runs: 1, appends: 500 } : { sizes: [10, 500, 10_000], runs: 3, appends: 2_000 },
  );
  const results = {
    started,
    machine: {
      cpus: cpus().length,
      model: cpus()[0]?.model ?? "unknown",
      loadAverageAtStart: load,
      bun: Bun.version,
      platform: process.platform,
    },
    quick,
    coldStart: cold,
    live: stream,
    append: appended,
    reopen: reopened,
    reopenWhole: reopenedWhole,
    postgres,
    backToBack: turns,
  };
  const checks = targets(results);
  await Bun.write(join(ROOT, "bench", "results.json"), `${JSON.stringify({ ...results, targets: checks }, null, 2)}\n`);
  process.stdout.write(table(results, checks));
  log("wrote bench/results.json");
} finally {
  build.dispose();
  rmSync(home, { recursive: true, force: true });
}
