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
  await readLines(agent.proc.stdout, (line, at) => {
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
  if (process.env.BENCH_DUMP) await Bun.write(`${process.env.BENCH_DUMP}-${entry.split("/").pop()}`, latencies.map((l, i) => `${i} ${l.toFixed(0)} ${i ? ((stamps[i] as number) - (stamps[i - 1] as number)) * 1000 : 0}`).join("\n"));
  const costs = stamps.slice(1).map((s, i) => (s - (stamps[i] as number)) * 1000);
  const span = (arrivals[arrivals.length - 1] as number) - (stamps[0] as number);
  return {
    chunks: stamps.length,
    perSecond: (stamps.length / span) * 1000,
    latencyP50: quantile(latencies, 0.5),
    latencyP99: quantile(latencies, 0.99),
    costP50: quantile(costs, 0.5),
    costP99: quantile(costs, 0.99),
  };
}

export type Live = {
  chunks: number;
  runs: number;
  verbatim: StreamRun;
  floor: StreamRun;
  /** verbatim's throughput as a share of the floor's (1 = as fast). */
  throughputRatio: number;
  /** Extra microseconds per chunk over the floor, from the throughputs. */
  extraPerChunk: number;
};

/** The median run (by throughput) of each, interleaved. */
export async function live(build: { liveAgent: string; streamFloor: string }, env: Record<string, string>, chunks = 10_000, runs = 3): Promise<Live> {
  const cwd = mkdtempSync(join(tmpdir(), "verbatim-bench-cwd-"));
  const runEnv = { ...env, BENCH_CHUNKS: String(chunks) };
  const v: StreamRun[] = [];
  const f: StreamRun[] = [];
  try {
    await streamOnce(build.liveAgent, runEnv, cwd);
    await streamOnce(build.streamFloor, runEnv, cwd);
    for (let i = 0; i < runs; i++) {
      v.push(await streamOnce(build.liveAgent, runEnv, cwd));
      f.push(await streamOnce(build.streamFloor, runEnv, cwd));
    }
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
  const pick = (rs: StreamRun[]) => {
    const m = median(rs.map((r) => r.perSecond));
    return rs.find((r) => r.perSecond === m) as StreamRun;
  };
  const verbatim = pick(v);
  const floor = pick(f);
  return {
    chunks,
    runs,
    verbatim,
    floor,
    throughputRatio: verbatim.perSecond / floor.perSecond,
    extraPerChunk: 1e6 / verbatim.perSecond - 1e6 / floor.perSecond,
  };
}
