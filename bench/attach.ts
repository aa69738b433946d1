/**
 * `bun bench/attach.ts [--quick] [--postgres] [--idle-only | --paced-only]`: editors following a running session through
 * `_verbatim/session/attach`, each client and each agent a process of its own, as in use.
 *
 * - Lag: the writer's agent streams a slow answer (scripted/slow) to its client; followers
 *   attached through their own verbatim processes are sent the same chunks. The figure is, per
 *   chunk, the time from the writer's client holding it to a follower's client holding it: what a
 *   follower adds to what the writer's own client sees (the writer's client is the journal's commit
 *   plus one pipe). With 1 and with 10 followers.
 * - Idle queries (with `--postgres`): the server's transactions per second while a session sits
 *   idle in its writer's process with 10 followers attached (every look at the journal is one),
 *   counted by the server (`pg_stat_database.xact_commit`) over a window of seconds.
 * - The writer's cost, as the ratio of its client's turn time to no follower in the same run: a
 *   turn at the model's pace (the slow answer) with 0, 1 and 10 followers (target: within 5%), and
 *   turns run back to back (scripted/demo: thinking, tool calls, a plan), where on a small machine
 *   the followers' processes take CPU the writer would use (every process is on this machine).
 *
 * Prints a table on stderr and the figures as JSON on stdout.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SessionNotification } from "@agentclientprotocol/sdk";
import { connectProcess, newSession, prompt, until, type Connected } from "../test/support/acp-session.ts";
import { attach } from "../test/support/attach.ts";
import { SQL } from "bun";
import { freshDatabase, startPostgres } from "../test/support/postgres-server.ts";
import { now } from "./lib/clock.ts";
import { median, quantile } from "./lib/stats.ts";

const args = process.argv.slice(2);
const quick = args.includes("--quick");
const log = (message: string) => process.stderr.write(`attach: ${message}\n`);
const isChunk = (n: SessionNotification) => n.update.sessionUpdate === "agent_message_chunk";

function environment(journal: string | undefined, model: string): { env: Record<string, string>; dispose(): void } {
  const home = mkdtempSync(join(tmpdir(), "verbatim-bench-attach-"));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    VERBATIM_HOME: home,
    VERBATIM_MODEL: model,
    ...(journal ? { VERBATIM_JOURNAL: journal } : {}),
  };
  return { env, dispose: () => rmSync(home, { recursive: true, force: true }) };
}

/** Each chunk's arrival at `client`, in order. */
function stampChunks(client: Connected): number[] {
  const at: number[] = [];
  client.client.onUpdate = (n) => {
    if (isChunk(n)) at.push(now());
  };
  return at;
}

async function followers(env: Record<string, string>, sessionId: string, count: number): Promise<Connected[]> {
  const all = await Promise.all(Array.from({ length: count }, () => connectProcess(env)));
  for (const f of all) await attach(f.ctx, { sessionId, historyPolicy: "none" });
  return all;
}

/** Per chunk, how long after the writer's client each follower's client held it; and each turn's time at the writer's client. */
async function lag(
  journal: string | undefined,
  count: number,
  turns: number,
): Promise<{ lags: number[]; turnMs: number[] }> {
  const { env, dispose } = environment(journal, "scripted/slow");
  const writer = await connectProcess(env);
  try {
    const { sessionId } = await newSession(writer.ctx, tmpdir());
    const attached = await followers(env, sessionId, count);
    const wrote = stampChunks(writer);
    const seen = attached.map(stampChunks);
    const turnMs: number[] = [];
    for (let t = 0; t < turns; t++) {
      const t0 = now();
      await prompt(writer.ctx, sessionId, "go slowly");
      turnMs.push(now() - t0);
    }
    await until(() => seen.every((s) => s.length === wrote.length), "every follower to hold every chunk", 30_000);
    await Promise.all(attached.map((f) => f.close()));
    return { lags: seen.flatMap((s) => s.map((at, i) => at - (wrote[i] as number))), turnMs };
  } finally {
    await writer.close();
    dispose();
  }
}

/** Milliseconds a turn takes the writer's client, with `count` followers attached, per round. */
async function writerTurns(
  journal: string | undefined,
  counts: number[],
  rounds: number,
): Promise<Map<number, number[]>> {
  const { env, dispose } = environment(journal, "scripted/demo");
  const times = new Map<number, number[]>(counts.map((c) => [c, []]));
  try {
    for (let r = 0; r < rounds; r++) {
      for (const count of counts) {
        const writer = await connectProcess(env, {});
        try {
          const { sessionId } = await newSession(writer.ctx, tmpdir());
          const attached = await followers(env, sessionId, count);
          const t0 = now();
          await prompt(writer.ctx, sessionId, "give me an overview");
          await prompt(writer.ctx, sessionId, "and read the missing file");
          times.get(count)!.push(now() - t0);
          await Promise.all(attached.map((f) => f.close()));
        } finally {
          await writer.close();
        }
      }
    }
    return times;
  } finally {
    dispose();
  }
}

/** The server's committed transactions per second while a session idles with `count` followers attached. */
async function idleQueries(journal: string, count: number, windowMs: number): Promise<number> {
  const { env, dispose } = environment(journal, "scripted/slow");
  const writer = await connectProcess(env);
  const admin = new SQL({ url: journal, max: 1 });
  try {
    const { sessionId } = await newSession(writer.ctx, tmpdir());
    await prompt(writer.ctx, sessionId, "go slowly");
    const attached = await followers(env, sessionId, count);
    // The statistics reach the server's view once a backend flushes them: within a second while it
    // is busy, but up to 10 s after it went idle; the turn's are all counted before the window opens.
    const committed = async () => {
      await admin`SELECT pg_stat_clear_snapshot()`;
      const [row] =
        (await admin`SELECT xact_commit::float8 AS n FROM pg_stat_database WHERE datname = current_database()`) as {
          n: number;
        }[];
      return row?.n ?? Number.NaN;
    };
    await Bun.sleep(12_000);
    const before = await committed();
    const t0 = now();
    await Bun.sleep(windowMs);
    const rate = ((await committed()) - before) / ((now() - t0) / 1000);
    await Promise.all(attached.map((f) => f.close()));
    return rate;
  } finally {
    await admin.close();
    await writer.close();
    dispose();
  }
}

/** Each count's median over no follower's, printed. */
function ratiosOf(times: Map<number, number[]>, what: string, store: string): Record<string, number> {
  const base = median(times.get(0) ?? []);
  const ratios: Record<string, number> = {};
  for (const [count, samples] of times) {
    ratios[String(count)] = median(samples) / base;
    log(
      `${store}, ${count} follower(s): ${what} ${median(samples).toFixed(1)} ms (${(median(samples) / base).toFixed(2)}x no follower)`,
    );
  }
  return ratios;
}

async function main(): Promise<void> {
  const server = args.includes("--postgres") ? await startPostgres({ durable: true }) : undefined;
  const journal = server ? await freshDatabase(server) : undefined;
  const store = server ? "postgres" : "sqlite";
  try {
    let idle: Record<string, number> | undefined;
    if (journal) {
      idle = {};
      for (const count of [0, 10]) {
        idle[String(count)] = await idleQueries(await freshDatabase(server), count, quick ? 5000 : 10_000);
        log(`${store}, ${count} follower(s), session idle: ${idle[String(count)]?.toFixed(1)} server transactions/s`);
      }
    }
    if (args.includes("--idle-only")) {
      process.stdout.write(`${JSON.stringify({ store, idleTransactionsPerSecond: idle })}\n`);
      return;
    }
    const turns = quick ? 2 : 4;
    const lags: Record<string, { p50: number; p99: number; samples: number }> = {};
    const paced = new Map<number, number[]>();
    for (const count of [0, 1, 10]) {
      const { lags: samples, turnMs } = await lag(journal, count, turns);
      paced.set(count, turnMs);
      if (count === 0) continue;
      lags[String(count)] = { p50: median(samples), p99: quantile(samples, 0.99), samples: samples.length };
      log(
        `${store}, ${count} follower(s): a follower holds a chunk ${median(samples).toFixed(1)} ms (p50), ${quantile(samples, 0.99).toFixed(1)} ms (p99) after the writer's client`,
      );
    }
    const pacedRatios = ratiosOf(paced, "a turn at the model's pace", store);
    if (args.includes("--paced-only")) {
      process.stdout.write(`${JSON.stringify({ store, lagMs: lags, writerAtModelPace: pacedRatios })}\n`);
      return;
    }
    const backToBack = ratiosOf(await writerTurns(journal, [0, 1, 10], quick ? 2 : 5), "two turns back to back", store);
    process.stdout.write(
      `${JSON.stringify({ store, lagMs: lags, writerAtModelPace: pacedRatios, writerBackToBack: backToBack, ...(idle ? { idleTransactionsPerSecond: idle } : {}) })}\n`,
    );
  } finally {
    await server?.stop();
  }
}

await main();
