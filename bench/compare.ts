/**
 * `bun bench/compare.ts BASE [options]`: this checkout against another one (BASE: a directory
 * holding another version of verbatim, e.g. `git archive <commit> | tar -x -C BASE` with a
 * `node_modules` link), interleaved run by run (base, this, floor, base, this, ...) so that a slow
 * moment of the machine hits each alike. For measuring a change before keeping it; prints
 * medians and each one's ratio to the floor of the same runs.
 *
 * options:  --only cold,reopen,live,paced,turns   (default: all)
 *           --runs N                        (default 15; live: N / 3; turns: each reopen N / 3)
 *           --sizes 10,100,1000             (reopen sessions, in turns; default 10,100,1000)
 *           --turns streamed|whole          (the reopened sessions' turns; default streamed)
 *           --chunks N                      (live chunks; default 20,000)
 *           --turn-count N                  (turns run back to back; default 500)
 *
 * Keep BASE inside the checkout (bench/.build/ is ignored): a program started from a crowded
 * directory such as a shared /tmp starts slower (see lib/agents.ts).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { backToBack, describeBackToBack } from "./back-to-back.ts";
import { FULL_AGENT, timeToInitialize, timeToSessionNew } from "./cold-start.ts";
import { buildAll, type Build } from "./lib/agents.ts";
import { median, quantile } from "./lib/stats.ts";
import { streamOnce, type StreamRun } from "./live.ts";
import { STREAMED_TURN, WHOLE_TURN } from "./lib/facts.ts";
import { floorRead, loadOnce, writeSessions } from "./reopen.ts";

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const baseRoot = args[0] && !args[0].startsWith("--") ? resolve(args[0]) : undefined;
if (!baseRoot)
  throw new Error("usage: bun bench/compare.ts BASE_CHECKOUT [--only ...] [--runs N] [--sizes ...] [--chunks N]");
const only = new Set((option("only") ?? "cold,reopen,live,paced,turns").split(","));
const runs = Number(option("runs") ?? 15);
const sizes = (option("sizes") ?? "10,100,1000").split(",").map(Number);
const chunks = Number(option("chunks") ?? 20_000);
const turnCount = Number(option("turn-count") ?? 500);
const shape = option("turns") === "whole" ? WHOLE_TURN : STREAMED_TURN;
const log = (message: string) => process.stderr.write(`compare: ${message}\n`);

/** Builds BASE with its own build script and bench (its dist/ is its own). */
function buildBase(): Build {
  const result = Bun.spawnSync(
    [
      process.execPath,
      "-e",
      `const {buildAll}=await import(${JSON.stringify(join(baseRoot as string, "bench/lib/agents.ts"))});const b=buildAll();console.log(JSON.stringify(b))`,
    ],
    { cwd: baseRoot, stdout: "pipe", stderr: "inherit" },
  );
  if (result.exitCode !== 0) throw new Error("building the base failed");
  const built = JSON.parse(result.stdout.toString()) as Omit<Build, "dispose">;
  return { ...built, dispose: () => rmSync(built.dir, { recursive: true, force: true }) };
}

const row = (name: string, base: number[], mine: number[], floor: number[] | undefined, unit: string) => {
  const b = median(base);
  const m = median(mine);
  const f = floor ? median(floor) : Number.NaN;
  const ratio = (x: number) => (floor ? ` (${(x / f).toFixed(2)}x)` : "");
  process.stdout.write(
    `${name.padEnd(34)} base ${b.toFixed(1)}${unit}${ratio(b)}  this ${m.toFixed(1)}${unit}${ratio(m)}${floor ? `  floor ${f.toFixed(1)}${unit}` : ""}  this/base ${(m / b).toFixed(3)}\n`,
  );
};

log("building both");
const mine = buildAll();
const base = buildBase();
const home = mkdtempSync(join(tmpdir(), "verbatim-compare-"));
const env = { VERBATIM_HOME: home };
try {
  process.stdout.write(
    `load average at start: ${(await import("node:os"))
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}\n`,
  );
  if (only.has("cold")) {
    log("cold start");
    const s = { base: [] as number[], mine: [] as number[], floor: [] as number[] };
    for (let i = 0; i < runs; i++) {
      s.base.push(await timeToInitialize(base.verbatim, env));
      s.mine.push(await timeToInitialize(mine.verbatim, env));
      s.floor.push(await timeToInitialize(mine.floor, env));
    }
    row("cold start, built", s.base, s.mine, s.floor, " ms");
    const raw: number[] = [];
    for (let i = 0; i < runs; i++) raw.push(await timeToInitialize(mine.rawFloor, env));
    process.stdout.write(`${"  Bun alone (no SDK, a fixed answer)".padEnd(34)} ${median(raw).toFixed(1)} ms\n`);
    const full = { base: [] as number[], mine: [] as number[] };
    for (let i = 0; i < runs; i++) {
      full.base.push(await timeToInitialize(base.verbatim, { ...env, ...FULL_AGENT }));
      full.mine.push(await timeToInitialize(mine.verbatim, { ...env, ...FULL_AGENT }));
    }
    row("cold start, the full agent answering", full.base, full.mine, s.floor, " ms");
    log("spawn to session/new");
    const cwd = mkdtempSync(join(tmpdir(), "verbatim-compare-cwd-"));
    const scripted = { ...env, VERBATIM_MODEL: "scripted/plain" };
    const n = { base: [] as number[], mine: [] as number[] };
    for (let i = 0; i < runs; i++) {
      n.base.push(await timeToSessionNew(base.verbatim, scripted, cwd));
      n.mine.push(await timeToSessionNew(mine.verbatim, scripted, cwd));
    }
    rmSync(cwd, { recursive: true, force: true });
    row("spawn → session/new response", n.base, n.mine, undefined, " ms");
  }
  if (only.has("reopen")) {
    const cwd = join(home, "project");
    const path = join(home, "journal.db");
    writeSessions(path, cwd, sizes, shape);
    for (const turns of sizes) {
      log(`reopen ${turns} turns`);
      const id = `ses_${turns}`;
      const s = {
        base: [] as number[],
        mine: [] as number[],
        floor: [] as number[],
        basePeak: [] as number[],
        minePeak: [] as number[],
      };
      await loadOnce(base.verbatim, env, id, cwd);
      await loadOnce(mine.verbatim, env, id, cwd);
      for (let i = 0; i < runs; i++) {
        const b = await loadOnce(base.verbatim, env, id, cwd);
        const m = await loadOnce(mine.verbatim, env, id, cwd);
        s.base.push(b.ms);
        s.mine.push(m.ms);
        s.basePeak.push(b.peak);
        s.minePeak.push(m.peak);
        s.floor.push(floorRead(mine.readFloor, path, id).ms);
      }
      row(`reopen ${turns} turns`, s.base, s.mine, s.floor, " ms");
      row(`  peak RSS`, s.basePeak, s.minePeak, undefined, " MB");
    }
  }
  for (const [name, pauseMs, n] of [
    ["live", 0, chunks],
    ["paced", 1, 2_000],
  ] as const) {
    if (!only.has(name)) continue;
    log(`${name} streaming`);
    const cwd = mkdtempSync(join(tmpdir(), "verbatim-compare-cwd-"));
    const runEnv = { ...env, BENCH_CHUNKS: String(n), BENCH_PAUSE_MS: String(pauseMs) };
    const s = { base: [] as StreamRun[], mine: [] as StreamRun[], floor: [] as StreamRun[] };
    for (let i = 0; i < Math.max(1, Math.round(runs / 3)); i++) {
      s.base.push(await streamOnce(base.liveAgent, runEnv, cwd));
      s.mine.push(await streamOnce(mine.liveAgent, runEnv, cwd));
      s.floor.push(await streamOnce(mine.streamFloor, runEnv, cwd));
    }
    rmSync(cwd, { recursive: true, force: true });
    for (const key of ["perSecond", "latencyP50", "latencyP90", "latencyP99"] as const) {
      row(
        `${name} ${key}`,
        s.base.map((r) => r[key]),
        s.mine.map((r) => r[key]),
        s.floor.map((r) => r[key]),
        "",
      );
    }
    const all = (rs: StreamRun[]) =>
      quantile(
        rs.map((r) => r.latencyP99),
        1,
      );
    process.stdout.write(
      `${name} worst p99: base ${all(s.base).toFixed(0)} this ${all(s.mine).toFixed(0)} floor ${all(s.floor).toFixed(0)}\n`,
    );
  }
  if (only.has("turns")) {
    // One run each (a run is hundreds of turns): the log's sizes are not noisy, the reopens are medians.
    const reopens = Math.max(3, Math.round(runs / 3));
    for (const [name, build] of [
      ["base", base],
      ["this", mine],
    ] as const) {
      log(`${turnCount} turns back to back, ${name}`);
      const r = await backToBack(build.verbatim, turnCount, reopens);
      process.stdout.write(`${name}:\n${describeBackToBack(r).replace(/^/gm, "  ")}\n`);
    }
  }
} finally {
  mine.dispose();
  base.dispose();
  rmSync(home, { recursive: true, force: true });
}
