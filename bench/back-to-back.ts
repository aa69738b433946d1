/**
 * Turns run back to back (a fast local model, a CI run): 500 prompts to the built agent on the
 * offline scripted model, each sent the moment the previous one is answered, so the writer is
 * never idle. Measured from outside: the largest write-ahead log seen after any turn, against its
 * bound; the log left once the agent is stopped by SIGTERM (how editors and harnesses stop it);
 * and the reopen (`session/load` in a fresh process) of those turns with the journal as the run
 * left it, beside the same reopen once the log is folded into the database by an explicit
 * checkpoint (the baseline: what a reader costs with no log to read through).
 *
 * usage: bun bench/back-to-back.ts [--turns N] [--runs N]   (builds the agent first)
 */
import { foldLog } from "./lib/fold-log.ts";
import { mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildAll, start } from "./lib/agents.ts";
import { readLines, requestLine, responseId, text } from "./lib/ndjson.ts";
import { median } from "./lib/stats.ts";
import { ENGINE_LOADED_MS, loadOnce } from "./reopen.ts";

/** The log's bound when VERBATIM_WAL_BOUND_MB is not set (src/journal/wal-checkpointer.ts). */
export const DEFAULT_WAL_BOUND = 64 * 1024 * 1024;

export type BackToBack = {
  turns: number;
  /** The largest `journal.db-wal` seen after any turn's answer, in bytes. */
  maxWalBytes: number;
  boundBytes: number;
  /** The log's size once the agent has exited after SIGTERM, in bytes. */
  walAfterSigtermBytes: number;
  /** The agent's exit code after SIGTERM. */
  sigtermExit: number;
  /** Milliseconds the 500 turns took, from the first prompt to the last answer. */
  runMs: number;
  /** The database file's size after the run, in bytes. */
  databaseBytes: number;
  /**
   * Reopen in a fresh process with the journal as the run left it, sent once the engine has loaded
   * in the background (ENGINE_LOADED_MS after initialize): load request → response (median of
   * `runs`). The target is on this one: it measured the request once the agent had loaded
   * (then, the full agent answered `initialize`).
   */
  reopenAsLeftEngineLoadedMs: number;
  /**
   * The same reopen sent the moment `initialize` is answered early: the request also waits for the
   * engine, which now evaluates after that answer (src/start/early-initialize.ts).
   */
  reopenAsLeftMs: number;
  /** That one from the process's spawn to the load response. */
  reopenAsLeftFromSpawnMs: number;
  /** The same from the spawn with the full agent answering `initialize` (VERBATIM_EARLY_INITIALIZE=off): what a restoring client waited before the early answer. */
  reopenAsLeftFullAgentFromSpawnMs: number;
  /** The same reopen after `wal_checkpoint(TRUNCATE)` (median of `runs`). */
  reopenCheckpointedMs: number;
  reopenCheckpointedFromSpawnMs: number;
  runs: number;
};

const fileSize = (path: string): number => statSync(path, { throwIfNoEntry: false })?.size ?? 0;

/** The environment of a private data home on the scripted model, away from the user's own config. */
function benchEnv(home: string): Record<string, string> {
  const configHome = join(home, "config");
  mkdirSync(configHome, { recursive: true });
  return {
    VERBATIM_HOME: home,
    VERBATIM_MODEL: "scripted/plain",
    XDG_CONFIG_HOME: configHome,
    ANTHROPIC_API_KEY: "",
    ANTHROPIC_BASE_URL: "",
    OPENAI_API_KEY: "",
    OPENAI_BASE_URL: "",
  };
}

/**
 * Runs `turns` prompts back to back in one agent, then stops it with SIGTERM. Returns the
 * session's id, the largest log seen, the time the turns took, the log left and the exit code.
 */
async function runTurns(entry: string, env: Record<string, string>, cwd: string, turns: number, journal: string) {
  const agent = start(entry, env);
  let sessionId = "";
  let maxWal = 0;
  let t0 = 0;
  let runMs = Number.NaN;
  let failure: string | undefined;
  const prompt = (id: number) =>
    agent.send(requestLine(id, "session/prompt", { sessionId, prompt: [{ type: "text", text: `turn ${id}` }] }));
  agent.send(requestLine(0, "initialize", { protocolVersion: 1, clientCapabilities: {} }));
  await readLines(agent.proc.stdout, (line) => {
    const id = responseId(line);
    if (id === undefined) return false;
    const body = text(line);
    if (body.includes('"error"')) {
      failure = body;
      return true;
    }
    if (id === 0) agent.send(requestLine(1, "session/new", { cwd, mcpServers: [] }));
    else if (id === 1) {
      sessionId = (JSON.parse(body) as { result: { sessionId: string } }).result.sessionId;
      t0 = performance.now();
      prompt(2);
    } else {
      maxWal = Math.max(maxWal, fileSize(`${journal}-wal`));
      if (id === turns + 1) {
        runMs = performance.now() - t0;
        return true;
      }
      prompt(id + 1);
    }
    return false;
  });
  if (failure || Number.isNaN(runMs)) {
    await agent.stop();
    throw new Error(`the back-to-back run failed: ${failure ?? "the agent stopped answering"}`);
  }
  agent.proc.kill("SIGTERM");
  const sigtermExit = await agent.proc.exited;
  return { sessionId, maxWal, runMs, walAfterSigterm: fileSize(`${journal}-wal`), sigtermExit };
}

/** The whole measurement, in a fresh data home (removed after). */
export async function backToBack(entry: string, turns = 500, runs = 5): Promise<BackToBack> {
  const home = mkdtempSync(join(tmpdir(), "verbatim-bench-turns-"));
  const cwd = join(home, "project");
  mkdirSync(cwd);
  const journal = join(home, "journal.db");
  try {
    const env = benchEnv(home);
    const run = await runTurns(entry, env, cwd, turns, journal);
    // Every load reads the journal as it stands: loading never writes, so each finds it as the run left it.
    const asLeft = [];
    const warm = [];
    const fullAgent = [];
    for (let i = 0; i < runs; i++) {
      asLeft.push(await loadOnce(entry, env, run.sessionId, cwd));
      warm.push(await loadOnce(entry, env, run.sessionId, cwd, ENGINE_LOADED_MS));
      fullAgent.push(await loadOnce(entry, { ...env, VERBATIM_EARLY_INITIALIZE: "off" }, run.sessionId, cwd));
    }
    foldLog(journal);
    const checkpointed = [];
    for (let i = 0; i < runs; i++) checkpointed.push(await loadOnce(entry, env, run.sessionId, cwd));
    const bound = process.env.VERBATIM_WAL_BOUND_MB;
    return {
      turns,
      maxWalBytes: run.maxWal,
      boundBytes: bound ? Number(bound) * 1024 * 1024 : DEFAULT_WAL_BOUND,
      walAfterSigtermBytes: run.walAfterSigterm,
      sigtermExit: run.sigtermExit,
      runMs: run.runMs,
      databaseBytes: fileSize(journal),
      reopenAsLeftMs: median(asLeft.map((l) => l.ms)),
      reopenAsLeftFromSpawnMs: median(asLeft.map((l) => l.fromSpawnMs)),
      reopenAsLeftEngineLoadedMs: median(warm.map((l) => l.ms)),
      reopenAsLeftFullAgentFromSpawnMs: median(fullAgent.map((l) => l.fromSpawnMs)),
      reopenCheckpointedMs: median(checkpointed.map((l) => l.ms)),
      reopenCheckpointedFromSpawnMs: median(checkpointed.map((l) => l.fromSpawnMs)),
      runs,
    };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** The figures as lines of text (what the command prints). */
export function describeBackToBack(r: BackToBack): string {
  return [
    `${r.turns} turns back to back in ${(r.runMs / 1000).toFixed(1)} s; database ${mb(r.databaseBytes)}`,
    `largest write-ahead log seen: ${mb(r.maxWalBytes)} (bound ${mb(r.boundBytes)}): ${r.maxWalBytes <= r.boundBytes ? "within" : "OVER"}`,
    `log left after SIGTERM: ${mb(r.walAfterSigtermBytes)} (exit ${r.sigtermExit})`,
    `reopen of the ${r.turns} turns, load request → response, log as left, sent once the engine has loaded (${ENGINE_LOADED_MS} ms after initialize): ${r.reopenAsLeftEngineLoadedMs.toFixed(1)} ms (target ≤ 36 ms; median of ${r.runs})`,
    `  sent the moment initialize is answered early (the engine's evaluation included), log as left: ${r.reopenAsLeftMs.toFixed(1)} ms; after a checkpoint: ${r.reopenCheckpointedMs.toFixed(1)} ms`,
    `  from the spawn, log as left: ${r.reopenAsLeftFromSpawnMs.toFixed(1)} ms (the full agent answering initialize: ${r.reopenAsLeftFullAgentFromSpawnMs.toFixed(1)} ms); after a checkpoint: ${r.reopenCheckpointedFromSpawnMs.toFixed(1)} ms`,
  ].join("\n");
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const option = (name: string, fallback: number) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? Number(args[i + 1]) : fallback;
  };
  const build = buildAll();
  try {
    const result = await backToBack(build.verbatim, option("turns", 500), option("runs", 5));
    process.stdout.write(`${describeBackToBack(result)}\n`);
  } finally {
    build.dispose();
  }
}
