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

/**
 * Milliseconds from spawn to the `session/new` response, sent the moment `initialize` is answered
 * (as editors do): what an early answer to `initialize` does not shorten, since the agent loads
 * after it. Needs a model (`env` chooses one) and a `cwd` that exists.
 */
export async function timeToSessionNew(entry: string, env: Record<string, string>, cwd: string): Promise<number> {
  const t0 = now();
  const agent = start(entry, env);
  agent.send(INITIALIZE);
  let at = Number.NaN;
  await readLines(agent.proc.stdout, (line, arrived) => {
    const id = responseId(line);
    if (id === 0) agent.send(requestLine(1, "session/new", { cwd, mcpServers: [] }));
    if (id !== 1) return false;
    at = arrived;
    return true;
  });
  await agent.stop();
  if (Number.isNaN(at)) throw new Error(`${entry} never answered session/new`);
  return at - t0;
}

type Pair = { verbatim: number; floor: number; ratio: number; verbatimP90: number; floorP90: number };

/**
 * `built`: as shipped, `initialize` answered by the start bundle; `builtFullAgent`: the same
 * bundle with VERBATIM_EARLY_INITIALIZE=off, the full agent answering (what a client whose first
 * line is not `initialize` waits for); `source`: from source, as shipped.
 */
export type ColdStart = { runs: number; built: Pair; builtFullAgent: Pair; source: Pair };

/** The full agent answers `initialize` itself (the start path leaves it the request). */
export const FULL_AGENT = { VERBATIM_EARLY_INITIALIZE: "off" };

export async function coldStart(
  build: { verbatim: string; floor: string },
  env: Record<string, string>,
  runs = 20,
): Promise<ColdStart> {
  const programs: Record<string, [string, Record<string, string>]> = {
    builtVerbatim: [build.verbatim, env],
    builtFullAgent: [build.verbatim, { ...env, ...FULL_AGENT }],
    builtFloor: [build.floor, env],
    sourceVerbatim: [join(ROOT, "src", "cli.ts"), env],
    sourceFloor: [join(ROOT, "bench", "floor", "initialize-only.ts"), env],
  };
  const samples: Record<string, number[]> = {};
  const names = Object.keys(programs);
  // One warm-up of each (the OS file cache), not counted.
  for (const name of names) await timeToInitialize(...(programs[name] as [string, Record<string, string>]));
  for (let i = 0; i < runs; i++) {
    for (const name of names)
      (samples[name] ??= []).push(await timeToInitialize(...(programs[name] as [string, Record<string, string>])));
  }
  const of = (name: string) => samples[name] ?? [];
  const pair = (v: number[], f: number[]) => ({
    verbatim: median(v),
    floor: median(f),
    ratio: median(v) / median(f),
    verbatimP90: quantile(v, 0.9),
    floorP90: quantile(f, 0.9),
  });
  return {
    runs,
    built: pair(of("builtVerbatim"), of("builtFloor")),
    builtFullAgent: pair(of("builtFullAgent"), of("builtFloor")),
    source: pair(of("sourceVerbatim"), of("sourceFloor")),
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
    const checks = checkStartBudget(join(build.dir, "dist"));
    for (const c of checks)
      process.stdout.write(
        `dist/${c.bundle}: ${c.kib.toFixed(0)} KiB (budget ${c.budgetKib} KiB)${c.within ? "" : ": OVER BUDGET"}\n`,
      );
    const samples = { early: [] as number[], full: [] as number[], floor: [] as number[], raw: [] as number[] };
    const env = { VERBATIM_HOME: join(build.dir, "home") };
    const full = { ...env, ...FULL_AGENT };
    await timeToInitialize(build.verbatim, env);
    await timeToInitialize(build.verbatim, full);
    await timeToInitialize(build.floor, env);
    for (let r = 0; r < runs; r++) {
      samples.early.push(await timeToInitialize(build.verbatim, env));
      samples.full.push(await timeToInitialize(build.verbatim, full));
      samples.floor.push(await timeToInitialize(build.floor, env));
      samples.raw.push(await timeToInitialize(build.rawFloor, env));
    }
    const f = median(samples.floor);
    const line = (what: string, v: number[]) =>
      `${what.padEnd(34)} ${median(v).toFixed(1)} ms (p90 ${quantile(v, 0.9).toFixed(1)}), ${(median(v) / f).toFixed(2)}x the floor\n`;
    process.stdout.write(
      `spawn → initialize, built (median of ${runs}):\n${line("verbatim (answered early)", samples.early)}${line("verbatim (the full agent answers)", samples.full)}${line("floor (SDK agent)", samples.floor)}${line("Bun alone (no SDK, a fixed answer)", samples.raw)}`,
    );
    if (checks.some((c) => !c.within)) process.exit(1);
  } finally {
    build.dispose();
  }
}
