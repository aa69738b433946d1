/**
 * `bun bench/rewind.ts [--turns 10000] [--runs 7] [--cache]`: how long `_verbatim/session/rewind`
 * takes to answer on a long session. A session of `--turns` turns (a prompt, thinking, an answer,
 * a Read call, the answer after it, usage, the turn's end) is written through the store API into a
 * SQLite journal, resumed through the agent app in this process (the SDK client over memory
 * streams, as `verbatim rewind` does), then rewound, each run timed from request to answer: to the
 * turn before last's answer (a recent message, the usual case), to the middle turn's, and to the
 * first turn's. The replay cache is off unless `--cache` (its writer then stores every row again
 * after each rewind, in the background, and the next run waits for it to finish). Prints a table,
 * and the figures as JSON on stdout.
 */
import * as acp from "@agentclientprotocol/sdk";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createAgentApp } from "../src/acp/agent-app.ts";
import { REWIND_METHOD, requestExtension } from "../src/protocol/extensions.ts";
import { ViewClient } from "../src/client/view-client.ts";
import { engineDeps } from "../src/core/engine-deps.ts";
import { SqliteJournal } from "../src/journal/sqlite-store.ts";
import { now } from "./lib/clock.ts";
import { WHOLE_TURN, startFact, turnFacts } from "./lib/facts.ts";
import { median, quantile } from "./lib/stats.ts";

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const turns = Number(option("turns") ?? 10_000);
const runs = Number(option("runs") ?? 7);
const cache = args.includes("--cache");
const log = (message: string) => process.stderr.write(`rewind: ${message}\n`);

const home = mkdtempSync(join(tmpdir(), "verbatim-bench-rewind-"));
const cwd = home;
const sessionId = "ses_benchrewind";
try {
  const journal = new SqliteJournal(join(home, "journal.db"));
  const at = new Date(Date.UTC(2026, 0, 1)).toISOString();
  await journal.create({ sessionId, cwd, additionalDirectories: [], createdAt: at, updatedAt: at }, startFact(cwd));
  let seq = 2;
  for (let t = 0; t < turns; t++) {
    const facts = turnFacts(t, cwd, WHOLE_TURN).map((fact) => ({ fact, at }));
    seq += (await journal.appendMany(sessionId, seq, facts)).length;
  }
  await journal.release(sessionId);
  await journal.close();
  log(`${turns} turns, ${seq - 1} records written`);

  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    VERBATIM_HOME: home,
    VERBATIM_MODEL: "scripted/plain",
    VERBATIM_REPLAY_CACHE: cache ? "on" : "off",
  };
  // The app reads the replay cache's switch from the process's environment.
  process.env.VERBATIM_REPLAY_CACHE = env.VERBATIM_REPLAY_CACHE;
  const deps = engineDeps(env);
  const { inMemory, closeAll } = createAgentApp(deps);
  const connection = new ViewClient().app().connect(inMemory());
  const agent = connection.agent;
  await agent.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
  const resumeStart = now();
  await agent.request(acp.methods.agent.session.resume, { sessionId, cwd, mcpServers: [] });
  const resumeMs = now() - resumeStart;
  // The answer after each turn's tool call (its turn's last message): from the last turns back to the first.
  const targets = {
    recent: `msg_${turns - 2}_a2`,
    middle: `msg_${Math.floor(turns / 2)}_a2`,
    first: "msg_0_a2",
  };
  const results: Record<string, { median: number; p90: number; samples: number[] }> = {};
  for (const [name, toMessageId] of Object.entries(targets)) {
    const samples: number[] = [];
    for (let r = 0; r < runs; r++) {
      const t0 = now();
      await requestExtension(agent, REWIND_METHOD, { sessionId, toMessageId });
      samples.push(now() - t0);
      // With the cache on, its writer stores every row again: the next run does not measure that work.
      if (cache) await Bun.sleep(2000);
    }
    results[name] = { median: median(samples), p90: quantile(samples, 0.9), samples };
    log(
      `${name.padEnd(7)} (${toMessageId}): median ${median(samples).toFixed(1)} ms, p90 ${quantile(samples, 0.9).toFixed(1)} ms`,
    );
  }
  log(`resume: ${resumeMs.toFixed(0)} ms`);
  await closeAll();
  connection.close();
  await deps.store.close();
  process.stdout.write(`${JSON.stringify({ turns, records: seq - 1, cache, resumeMs, rewind: results })}\n`);
} finally {
  rmSync(home, { recursive: true, force: true });
}
