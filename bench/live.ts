/**
 * Live overhead: verbatim streams a provider's chunks to the client at full speed, and so does
 * the floor (an SDK agent that sends each chunk straight on: no journal, no projection). Each
 * chunk carries the time the provider handed it over; the client notes when its line arrived.
 * What verbatim adds per event is its latency and its cost per chunk over the floor's.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { start } from "./lib/agents.ts";
import { readLines, requestLine, responseId, text } from "./lib/ndjson.ts";
import { median, quantile } from "./lib/stats.ts";

export type StreamRun = {
  chunks: number;
  /** Chunks per second from the first provider event to the last chunk's arrival. */
  perSecond: number;
  /** Microseconds from a chunk's provider event to its arrival at the client. */
  latencyP50: number;
  latencyP90: number;
  latencyP99: number;
  /** Microseconds between consecutive chunks' provider events (the agent's cost per chunk). */
  costP50: number;
  costP99: number;
};

const CHUNK = "agent_message_chunk";
const TEXT = '"text":"';

/** Streams one prompt's chunks from `entry` and measures them on arrival. */
export async function streamOnce(entry: string, env: Record<string, string>, cwd: string): Promise<StreamRun> {
  const agent = start(entry, env);
  const stamps: number[] = [];
  const arrivals: number[] = [];
  let sessionId: string | undefined;
  let promptSent = false;
  agent.send(requestLine(0, "initialize", { protocolVersion: 1, clientCapabilities: {} }));
  // With a job beside the stream (BENCH_JOB), its Bash call asks first: allowed once.
  const answersPermission = env.BENCH_JOB !== undefined;
  await readLines(agent.proc.stdout, (line, at) => {
    const asked = answersPermission ? permissionRequest(line) : undefined;
    if (asked) {
      const result = { outcome: { outcome: "selected", optionId: asked.allow } };
      agent.send(`${JSON.stringify({ jsonrpc: "2.0", id: asked.id, result })}\n`);
      return false;
    }
    const id = responseId(line);
    // The SDK answers requests concurrently: each waits for the previous response.
    if (id === 0) {
      agent.send(requestLine(1, "session/new", { cwd, mcpServers: [] }));
      return false;
    }
    if (id === 1 && !promptSent) {
      const response = JSON.parse(text(line)) as { result?: { sessionId: string }; error?: unknown };
      if (!response.result) throw new Error(`session/new failed: ${text(line)}`);
      sessionId = response.result.sessionId;
      promptSent = true;
      agent.send(requestLine(2, "session/prompt", { sessionId, prompt: [{ type: "text", text: "go" }] }));
      return false;
    }
    if (id === 2) return true;
    if (id !== undefined) return false;
    const s = text(line);
    if (!s.includes(CHUNK)) return false;
    const t = s.indexOf(TEXT);
    if (t < 0) return false;
    stamps.push(Number.parseFloat(s.slice(t + TEXT.length, t + TEXT.length + 24)));
    arrivals.push(at);
    return false;
  });
  await agent.stop();
  if (stamps.length === 0) throw new Error(`${entry} streamed no chunks`);
  const latencies = stamps.map((s, i) => ((arrivals[i] as number) - s) * 1000);
  if (process.env.BENCH_DUMP)
    await Bun.write(
      `${process.env.BENCH_DUMP}-${entry.split("/").pop()}`,
      latencies
        .map((l, i) => `${i} ${l.toFixed(0)} ${i ? ((stamps[i] as number) - (stamps[i - 1] as number)) * 1000 : 0}`)
        .join("\n"),
    );
  const costs = stamps.slice(1).map((s, i) => (s - (stamps[i] as number)) * 1000);
  const span = (arrivals[arrivals.length - 1] as number) - (stamps[0] as number);
  return {
    chunks: stamps.length,
    perSecond: (stamps.length / span) * 1000,
    latencyP50: quantile(latencies, 0.5),
    latencyP90: quantile(latencies, 0.9),
    latencyP99: quantile(latencies, 0.99),
    costP50: quantile(costs, 0.5),
    costP99: quantile(costs, 0.99),
  };
}

/** A `session/request_permission` request: its id and the option that allows once. */
function permissionRequest(line: Uint8Array | string): { id: number | string; allow: string } | undefined {
  const s = typeof line === "string" ? line : text(line);
  if (!s.includes('"session/request_permission"')) return undefined;
  const request = JSON.parse(s) as { id: number | string; params: { options: { optionId: string; kind: string }[] } };
  const allow = request.params.options.find((o) => o.kind === "allow_once")?.optionId ?? "";
  return { id: request.id, allow };
}

export type Live = {
  chunks: number;
  runs: number;
  /** At full speed: the provider hands over its next chunk as soon as the agent asks. */
  verbatim: StreamRun;
  floor: StreamRun;
  /** verbatim's throughput as a share of the floor's (1 = as fast). */
  throughputRatio: number;
  /** Extra microseconds per chunk over the floor, from the throughputs. */
  extraPerChunk: number;
  /** Paced like a fast network provider: one chunk per `pauseMs`, each on its own turn of the event loop. */
  paced: { chunks: number; pauseMs: number; verbatim: StreamRun; floor: StreamRun; extraP50: number; extraP99: number };
};

/** The median run (by throughput, or by p50 latency when paced) of each, interleaved. */
export async function live(
  build: { liveAgent: string; streamFloor: string },
  env: Record<string, string>,
  options: { chunks: number; runs: number; pacedChunks: number; pauseMs: number },
): Promise<Live> {
  const cwd = mkdtempSync(join(tmpdir(), "verbatim-bench-cwd-"));
  const series = async (chunks: number, pauseMs: number) => {
    const runEnv = { ...env, BENCH_CHUNKS: String(chunks), BENCH_PAUSE_MS: String(pauseMs) };
    const v: StreamRun[] = [];
    const f: StreamRun[] = [];
    await streamOnce(build.liveAgent, runEnv, cwd);
    await streamOnce(build.streamFloor, runEnv, cwd);
    for (let i = 0; i < options.runs; i++) {
      v.push(await streamOnce(build.liveAgent, runEnv, cwd));
      f.push(await streamOnce(build.streamFloor, runEnv, cwd));
    }
    return { verbatim: v, floor: f };
  };
  try {
    const full = await series(options.chunks, 0);
    const paced = await series(options.pacedChunks, options.pauseMs);
    const byThroughput = (rs: StreamRun[]) => pick(rs, (r) => r.perSecond);
    const byLatency = (rs: StreamRun[]) => pick(rs, (r) => r.latencyP50);
    const verbatim = byThroughput(full.verbatim);
    const floor = byThroughput(full.floor);
    const pv = byLatency(paced.verbatim);
    const pf = byLatency(paced.floor);
    return {
      chunks: options.chunks,
      runs: options.runs,
      verbatim,
      floor,
      throughputRatio: verbatim.perSecond / floor.perSecond,
      extraPerChunk: 1e6 / verbatim.perSecond - 1e6 / floor.perSecond,
      paced: {
        chunks: options.pacedChunks,
        pauseMs: options.pauseMs,
        verbatim: pv,
        floor: pf,
        extraP50: pv.latencyP50 - pf.latencyP50,
        extraP99: pv.latencyP99 - pf.latencyP99,
      },
    };
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

/** The run with the median of `key`. */
function pick(runs: StreamRun[], key: (run: StreamRun) => number): StreamRun {
  const m = median(runs.map(key));
  return runs.find((r) => key(r) === m) as StreamRun;
}
