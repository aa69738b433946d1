/**
 * Cold start: from spawning the process to reading its `initialize` response, for verbatim and
 * for the floor (an SDK agent that answers only `initialize`), built and from source. Runs are
 * interleaved so that a slow moment of the machine hits every program alike.
 */
import { ROOT, start } from "./lib/agents.ts";
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
