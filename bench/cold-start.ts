/**
 * Cold start: from spawning the process to reading its `initialize` response, for verbatim and
 * for the floor (an SDK agent that answers only `initialize`), built and from source. Runs are
 * interleaved so that a slow moment of the machine hits every program alike.
 *
 * `bun bench/cold-start.ts [--runs N]` builds dist/ and the floor, fails (exit 1) when a bundle on
 * the start path is larger than its budget (bench/start-budget.json: a bytecode bundle costs at
 * start for every byte it holds, so its size is the start cost that can be checked without a
 * clock), then prints the built agent's time to `initialize` against the floor's.
 */
import { readFileSync, statSync } from "node:fs";
import { buildAll, ROOT, start } from "./lib/agents.ts";
import { now } from "./lib/clock.ts";
import { readLines, requestLine, responseId } from "./lib/ndjson.ts";
import { median, quantile } from "./lib/stats.ts";
import { join } from "node:path";

const INITIALIZE = requestLine(0, "initialize", { protocolVersion: 1, clientCapabilities: {} });

/** Milliseconds from spawn to the initialize response. */
export async function timeToInitialize(entry: string, env: Record<string, string>): Promise<number> {
  const t0 = now();
  const agent = start(entry, env);
  agent.send(INITIALIZE);
  let at = Number.NaN;
  await readLines(agent.proc.stdout, (line, arrived) => {
    if (responseId(line) !== 0) return false;
    at = arrived;
    return true;
  });
  await agent.stop();
  if (Number.isNaN(at)) throw new Error(`${entry} never answered initialize`);
  return at - t0;
}

export type ColdStart = {
  runs: number;
  built: { verbatim: number; floor: number; ratio: number; verbatimP90: number; floorP90: number };
  source: { verbatim: number; floor: number; ratio: number; verbatimP90: number; floorP90: number };
};

export async function coldStart(
  build: { verbatim: string; floor: string },
  env: Record<string, string>,
  runs = 20,
): Promise<ColdStart> {
  const programs = {
    builtVerbatim: build.verbatim,
    builtFloor: build.floor,
    sourceVerbatim: join(ROOT, "src", "cli.ts"),
    sourceFloor: join(ROOT, "bench", "floor", "initialize-only.ts"),
  };
  const samples: Record<keyof typeof programs, number[]> = {
    builtVerbatim: [],
    builtFloor: [],
    sourceVerbatim: [],
    sourceFloor: [],
  };
  const names = Object.keys(programs) as (keyof typeof programs)[];
  // One warm-up of each (the OS file cache), not counted.
  for (const name of names) await timeToInitialize(programs[name], env);
  for (let i = 0; i < runs; i++) {
    for (const name of names) samples[name].push(await timeToInitialize(programs[name], env));
  }
  const pair = (v: number[], f: number[]) => ({
    verbatim: median(v),
    floor: median(f),
    ratio: median(v) / median(f),
    verbatimP90: quantile(v, 0.9),
    floorP90: quantile(f, 0.9),
  });
  return {
    runs,
    built: pair(samples.builtVerbatim, samples.builtFloor),
    source: pair(samples.sourceVerbatim, samples.sourceFloor),
  };
}

/** The largest each bundle on the start path may be, in KiB (its `.js`; the bytecode beside it grows with it). */
export type StartBudget = Record<string, number>;

export type BudgetCheck = { bundle: string; kib: number; budgetKib: number; within: boolean };

/** Each budgeted bundle of `dist` against bench/start-budget.json. */
export function checkStartBudget(dist = join(ROOT, "dist")): BudgetCheck[] {
  const budget = JSON.parse(readFileSync(join(ROOT, "bench", "start-budget.json"), "utf8")) as {
    bundles: StartBudget;
  };
  return Object.entries(budget.bundles).map(([bundle, budgetKib]) => {
    const kib = statSync(join(dist, bundle)).size / 1024;
    return { bundle, kib, budgetKib, within: kib <= budgetKib };
  });
}

if (import.meta.main) {
  const i = process.argv.indexOf("--runs");
  const runs = i >= 0 ? Number(process.argv[i + 1]) : 20;
  const build = buildAll();
  try {
    const checks = checkStartBudget();
    for (const c of checks)
      process.stdout.write(
        `dist/${c.bundle}: ${c.kib.toFixed(0)} KiB (budget ${c.budgetKib} KiB)${c.within ? "" : ": OVER BUDGET"}\n`,
      );
    const samples = { verbatim: [] as number[], floor: [] as number[] };
    const env = { VERBATIM_HOME: join(build.dir, "home") };
    await timeToInitialize(build.verbatim, env);
    await timeToInitialize(build.floor, env);
    for (let r = 0; r < runs; r++) {
      samples.verbatim.push(await timeToInitialize(build.verbatim, env));
      samples.floor.push(await timeToInitialize(build.floor, env));
    }
    const v = median(samples.verbatim);
    const f = median(samples.floor);
    process.stdout.write(
      `spawn → initialize, built (median of ${runs}): verbatim ${v.toFixed(1)} ms, floor ${f.toFixed(1)} ms, ${(v / f).toFixed(2)}x (p90 ${quantile(samples.verbatim, 0.9).toFixed(1)} / ${quantile(samples.floor, 0.9).toFixed(1)} ms)\n`,
    );
    if (checks.some((c) => !c.within)) process.exit(1);
  } finally {
    build.dispose();
  }
}
