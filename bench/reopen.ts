/**
 * Reopen at scale: `session/load` of sessions of 10 to 10,000 turns, from the request to its
 * response (every update read by the client before it), against the floor of reading and
 * parsing the same stored rows with bun:sqlite in the same run (in a fresh process too). Each load runs in a fresh
 * verbatim process, whose peak memory (VmHWM) is read from /proc, and compared with its memory
 * after `initialize`.
 */
import { foldLog } from "./lib/fold-log.ts";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqliteJournal } from "../src/journal/sqlite-store.ts";
import { BUN, start } from "./lib/agents.ts";
import { now } from "./lib/clock.ts";
import { STREAMED_TURN, startFact, turnFacts, type TurnShape } from "./lib/facts.ts";
import { readLines, requestLine, responseId, text } from "./lib/ndjson.ts";
import { linearFit, median } from "./lib/stats.ts";

export type ReopenRun = {
  turns: number;
  facts: number;
  storedBytes: number;
  /** Milliseconds from the load request to its response (median). */
  loadMs: number;
  /** Milliseconds to load SQLite, open the journal, read and JSON-parse the same rows (median). */
  floorMs: number;
  /** Of `floorMs`, loading SQLite and opening the journal (median). */
  floorOpenMs: number;
  ratio: number;
  updates: number;
  rssAfterInitializeMb: number;
  peakRssMb: number;
  peakRatio: number;
};

export type Reopen = { shape: TurnShape; runs: ReopenRun[]; msPerThousandTurns: number; linearR2: number };

/** Writes a session of `turns` turns through the store API; returns its fact count. */
export function generateSession(
  journal: SqliteJournal,
  sessionId: string,
  cwd: string,
  turns: number,
  shape: TurnShape = STREAMED_TURN,
): number {
  const at = new Date(Date.UTC(2026, 0, 1)).toISOString();
  let seq = 1;
  journal.create({ sessionId, cwd, additionalDirectories: [], createdAt: at, updatedAt: at }, startFact(cwd));
  for (let t = 0; t < turns; t++) {
    const facts = turnFacts(t, cwd, shape).map((fact) => ({ fact, at }));
    journal.appendMany(sessionId, seq + 1, facts);
    seq += facts.length;
  }
  return seq;
}

/**
 * Writes a session of each size (ids `ses_<turns>`) into the journal at `path`, and returns once
 * the journal is closed and its write-ahead log folded into the database file (the checkpointer's
 * thread would otherwise go on folding it while the loads are measured): the state of a session
 * reopened later. Returns each session's fact count.
 */
export function writeSessions(
  path: string,
  cwd: string,
  sizes: number[],
  shape: TurnShape = STREAMED_TURN,
): Map<number, number> {
  const journal = new SqliteJournal(path);
  const facts = new Map<number, number>();
  for (const turns of sizes) facts.set(turns, generateSession(journal, `ses_${turns}`, cwd, turns, shape));
  journal.close();
  foldLog(path);
  return facts;
}

/** Reads and parses the session's stored rows in a fresh process: what any reader must do at least. */
export function floorRead(
  entry: string,
  path: string,
  sessionId: string,
): { ms: number; openMs: number; bytes: number } {
  const result = Bun.spawnSync([BUN, entry, path, sessionId], { stdout: "pipe", stderr: "inherit" });
  if (result.exitCode !== 0) throw new Error(`the read floor failed for ${sessionId}`);
  const { ms, openMs, bytes } = JSON.parse(result.stdout.toString()) as { ms: number; openMs: number; bytes: number };
  return { ms, openMs, bytes };
}

/** Milliseconds of CPU the process has had so far (Linux's schedstat): steadier than wall time on a loaded machine. */
export const cpuMs = (pid: number): number =>
  Number(readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ")[0]) / 1e6;

/** Milliseconds of CPU every thread of the process has had so far (the engine's loading runs on more than one). */
const allThreadsCpuMs = (pid: number): number => {
  let ns = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // The thread ended meanwhile.
    }
  }
  return ns / 1e6;
};

/** How long the agent must use no CPU to count as settled: longer than its 20 ms wait before it loads the engine. */
const SETTLED_FOR_MS = 60;

/**
 * Resolves once the process has used (almost) no CPU for SETTLED_FOR_MS: its engine loaded and
 * warmed, its collection done. An agent loads a session sent then as one already running would,
 * without the time it would otherwise sit idle first: on a virtual machine the first work after
 * an idle second is slower the longer the idle (docs/performance.md), which is the machine's, not
 * the agent's. Gives up after `maxMs`.
 */
export async function settled(pid: number, maxMs = 5000): Promise<void> {
  const started = now();
  let last = allThreadsCpuMs(pid);
  let quietSince = now();
  while (now() - started < maxMs) {
    await Bun.sleep(10);
    const cpu = allThreadsCpuMs(pid);
    if (cpu - last > 0.2) quietSince = now();
    last = cpu;
    if (now() - quietSince >= SETTLED_FOR_MS) return;
  }
}

const rssMb = (pid: number, field: "VmRSS" | "VmHWM"): number => {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(status);
  return match ? Number(match[1]) / 1024 : Number.NaN;
};

/** Long enough after `initialize` for the engine to have loaded in the background (about 40 ms on a loaded 2-core machine). */
export const ENGINE_LOADED_MS = 500;

/**
 * Loads a session in a fresh agent process. `ms` is from the load request to its response;
 * `fromSpawnMs` from the spawn: since `initialize` is answered before the agent is loaded
 * (src/start/early-initialize.ts), the first request after it also waits for the agent to load.
 * `afterInitializeMs`: how long the client waits after the `initialize` answer before it sends
 * the load (0: at once, as a client restoring its last session does; ENGINE_LOADED_MS: long
 * enough for the engine to have loaded in the background, as when a person picks a past session;
 * "settled": once the agent has loaded its engine and gone quiet, see `settled`).
 */
export async function loadOnce(
  entry: string,
  env: Record<string, string>,
  sessionId: string,
  cwd: string,
  afterInitializeMs: number | "settled" = 0,
) {
  const spawned = now();
  const agent = start(entry, env);
  let t0 = 0;
  let ms = Number.NaN;
  let fromSpawnMs = Number.NaN;
  let updates = 0;
  /** Milliseconds from the load request to its first update. */
  let firstUpdateMs = Number.NaN;
  let rssAfterInitialize = Number.NaN;
  /** The agent's memory when the load is sent (idle, with the engine loaded when `afterInitializeMs` is long enough). */
  let rssAtLoad = Number.NaN;
  /** The agent's CPU time when the load was sent, and when it was answered. */
  let cpuAtLoad = Number.NaN;
  let cpuAtAnswer = Number.NaN;
  let failure: string | undefined;
  agent.send(requestLine(0, "initialize", { protocolVersion: 1, clientCapabilities: {} }));
  await readLines(agent.proc.stdout, (line, at) => {
    const id = responseId(line);
    if (id === 0) {
      rssAfterInitialize = rssMb(agent.proc.pid, "VmRSS");
      const sendLoad = () => {
        rssAtLoad = rssMb(agent.proc.pid, "VmRSS");
        cpuAtLoad = cpuMs(agent.proc.pid);
        t0 = now();
        agent.send(requestLine(1, "session/load", { sessionId, cwd, mcpServers: [] }));
      };
      if (afterInitializeMs === "settled") void settled(agent.proc.pid).then(sendLoad);
      else if (afterInitializeMs > 0) setTimeout(sendLoad, afterInitializeMs);
      else sendLoad();
      return false;
    }
    if (id === 1) {
      cpuAtAnswer = cpuMs(agent.proc.pid);
      ms = at - t0;
      fromSpawnMs = at - spawned;
      if (text(line).includes('"error"')) failure = text(line);
      return true;
    }
    if (updates++ === 0) firstUpdateMs = at - t0;
    return false;
  });
  const peak = rssMb(agent.proc.pid, "VmHWM");
  await agent.stop();
  if (failure || Number.isNaN(ms)) throw new Error(`session/load failed: ${failure ?? "no response"}`);
  return {
    ms,
    fromSpawnMs,
    updates,
    firstUpdateMs,
    rssAfterInitialize,
    rssAtLoad,
    peak,
    /** The agent's CPU milliseconds from the load request to its answer, and from its spawn to that answer. */
    cpuMs: cpuAtAnswer - cpuAtLoad,
    cpuFromSpawnMs: cpuAtAnswer,
  };
}

export async function reopen(
  entry: string,
  floorEntry: string,
  sizes = [10, 100, 500, 1_000, 10_000],
  runs = 3,
  shape: TurnShape = STREAMED_TURN,
): Promise<Reopen> {
  const home = mkdtempSync(join(tmpdir(), "verbatim-bench-reopen-"));
  const cwd = join(home, "project");
  const path = join(home, "journal.db");
  try {
    const facts = writeSessions(path, cwd, sizes, shape);
    const env = { VERBATIM_HOME: home };
    const results: ReopenRun[] = [];
    for (const turns of sizes) {
      const sessionId = `ses_${turns}`;
      floorRead(floorEntry, path, sessionId);
      const loads = [];
      const floors = [];
      const opens = [];
      let bytes = 0;
      for (let i = 0; i < runs; i++) {
        loads.push(await loadOnce(entry, env, sessionId, cwd));
        const floor = floorRead(floorEntry, path, sessionId);
        floors.push(floor.ms);
        opens.push(floor.openMs);
        bytes = floor.bytes;
      }
      const loadMs = median(loads.map((l) => l.ms));
      const floorMs = median(floors);
      const rssAfterInitializeMb = median(loads.map((l) => l.rssAfterInitialize));
      const peakRssMb = median(loads.map((l) => l.peak));
      results.push({
        turns,
        facts: facts.get(turns) ?? 0,
        storedBytes: bytes,
        loadMs,
        floorMs,
        floorOpenMs: median(opens),
        ratio: loadMs / floorMs,
        updates: loads[0]?.updates ?? 0,
        rssAfterInitializeMb,
        peakRssMb,
        peakRatio: peakRssMb / rssAfterInitializeMb,
      });
    }
    const fit = linearFit(
      results.map((r) => r.turns),
      results.map((r) => r.loadMs),
    );
    return { shape, runs: results, msPerThousandTurns: fit.slope * 1000, linearR2: fit.r2 };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
