/**
 * `bun bench/live-job.ts [--runs N] [--chunks N]`: the live path's cost per chunk with a
 * background job streaming beside it (BENCH_JOB: a command printing a line every millisecond,
 * its output recorded as it flows) against the same agent with no job, interleaved run by run.
 * Prints the medians and their ratios (with / without): near 1 is "does not move".
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildAll } from "./lib/agents.ts";
import { median } from "./lib/stats.ts";
import { streamOnce, type StreamRun } from "./live.ts";

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const runs = option("runs", 7);
const chunks = option("chunks", 20_000);
/** About a thousand lines a second, as a busy dev server or watcher prints. */
const JOB = 'i=0; while :; do i=$((i+1)); echo "job line $i: GET /api/items 200 3ms"; sleep 0.001; done';

const build = buildAll();
const home = mkdtempSync(join(tmpdir(), "verbatim-bench-job-"));
const cwd = mkdtempSync(join(tmpdir(), "verbatim-bench-job-cwd-"));
try {
  const env = (job: boolean, n: number) => ({
    VERBATIM_HOME: join(home, String(n)),
    BENCH_CHUNKS: String(chunks),
    BENCH_PAUSE_MS: "0",
    ...(job ? { BENCH_JOB: JOB } : {}),
  });
  const without: StreamRun[] = [];
  const withJob: StreamRun[] = [];
  await streamOnce(build.liveAgent, env(false, 0), cwd);
  for (let i = 0; i < runs; i++) {
    without.push(await streamOnce(build.liveAgent, env(false, i * 2 + 1), cwd));
    withJob.push(await streamOnce(build.liveAgent, env(true, i * 2 + 2), cwd));
  }
  const row = (name: string, key: (r: StreamRun) => number, unit: string) => {
    const a = median(without.map(key));
    const b = median(withJob.map(key));
    console.log(
      `${name.padEnd(22)} ${a.toFixed(1).padStart(10)} ${b.toFixed(1).padStart(10)} ${unit.padEnd(9)} ${(b / a).toFixed(3)}`,
    );
  };
  console.log(`live, ${chunks} chunks, ${runs} runs each       no job   job beside          ratio`);
  row("chunks per second", (r) => r.perSecond, "/s");
  row("cost per chunk p50", (r) => r.costP50, "µs");
  row("cost per chunk p99", (r) => r.costP99, "µs");
  row("latency p50", (r) => r.latencyP50, "µs");
  row("latency p99", (r) => r.latencyP99, "µs");
} finally {
  build.dispose();
  rmSync(home, { recursive: true, force: true });
  rmSync(cwd, { recursive: true, force: true });
}
