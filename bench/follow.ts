/**
 * `bun bench/follow.ts [--quick] [--postgres]`: following a session another process writes
 * (src/journal/follow.ts), each side a process of its own as in use.
 *
 * - Latency: a writer appends a streamed chunk every 5 ms; a follower stamps each record as it
 *   reads it. The figure is the time from the append's commit (stamped by the writer as the
 *   append returns) to the follower holding the record, on SQLite and, with `--postgres`, on an
 *   embedded server on loopback (targets: < 50 ms on SQLite, < 100 ms on PostgreSQL).
 * - The writer's cost: chunks appended back to back with 0, 1 and 10 followers reading, runs
 *   interleaved; the ratio is against no follower in the same run (target: within 5%).
 *
 * Prints a table on stderr and the figures as JSON on stdout.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FollowCursor, followRecords } from "../src/journal/follow.ts";
import { PostgresJournal } from "../src/journal/postgres-store.ts";
import { SqliteJournal } from "../src/journal/sqlite-store.ts";
import type { JournalStore } from "../src/journal/store.ts";
import { freshDatabase, startPostgres } from "../test/support/postgres-server.ts";
import { now } from "./lib/clock.ts";
import { chunkFact, startFact } from "./lib/facts.ts";
import { median, quantile } from "./lib/stats.ts";

const SESSION = "ses_follow";
const args = process.argv.slice(2);
const quick = args.includes("--quick");
const log = (message: string) => process.stderr.write(`follow: ${message}\n`);
const open = (where: string): JournalStore =>
  where.startsWith("postgres://") ? new PostgresJournal(where) : new SqliteJournal(where);

/** `--writer WHERE COUNT PACE_MS`: creates the session, appends COUNT chunks, prints `seq committedAt appendMs` per append. */
async function writer(where: string, count: number, paceMs: number): Promise<void> {
  const journal = open(where);
  const at = new Date().toISOString();
  await journal.create(
    { sessionId: SESSION, cwd: "/tmp", additionalDirectories: [], createdAt: at, updatedAt: at },
    startFact("/tmp"),
  );
  let lines = "";
  const t0 = now();
  for (let i = 0; i < count; i++) {
    const before = now();
    await journal.append(SESSION, i + 2, chunkFact(i), new Date().toISOString());
    const after = now();
    lines += `${i + 2} ${after} ${after - before}\n`;
    if (paceMs > 0) await Bun.sleep(paceMs);
  }
  const ms = now() - t0;
  await journal.close();
  process.stdout.write(`${lines}total ${ms}\n`);
}

/** `--follower WHERE LAST`: follows the session until record LAST, prints `seq receivedAt` per record. */
async function follower(where: string, lastSeq: number): Promise<void> {
  const journal = open(where);
  const done = new AbortController();
  let lines = "";
  await journal.lastSeq(SESSION);
  process.stdout.write("ready\n");
  for await (const page of followRecords(journal, SESSION, new FollowCursor(), {
    signal: done.signal,
    intervalMs: 15,
  })) {
    const at = now();
    for (const record of page) lines += `${record.seq} ${at}\n`;
    if ((page[page.length - 1]?.seq ?? 0) >= lastSeq) done.abort();
  }
  await journal.close();
  process.stdout.write(lines);
}

const self = (...rest: string[]) =>
  Bun.spawn([process.execPath, import.meta.path, ...rest], { stdout: "pipe", stderr: "inherit" });

/**
 * A follower process, once it has opened the journal (processes still starting would take the
 * CPU the writer is timed on), with all it prints to come.
 */
async function startFollower(where: string, lastSeq: number): Promise<{ output: Promise<string> }> {
  const reader = self("--follower", where, String(lastSeq)).stdout.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const more = async (): Promise<boolean> => {
    const { value, done } = await reader.read();
    if (!done) text += decoder.decode(value, { stream: true });
    return !done;
  };
  while (!text.includes("ready\n") && (await more()));
  const output = (async () => {
    while (await more());
    return text;
  })();
  return { output };
}

const stamps = (text: string): Map<number, number> =>
  new Map(
    text
      .split("\n")
      .filter((l) => /^\d+ /.test(l))
      .map((l) => l.split(" ").map(Number).slice(0, 2) as [number, number]),
  );

/** Commit-to-follower latencies (ms) of `count` paced appends, writer and follower each a process. */
async function latencies(where: string, count: number): Promise<number[]> {
  const followed = await startFollower(where, count + 1);
  const written = await new Response(self("--writer", where, String(count), "5").stdout).text();
  const committed = stamps(written);
  const received = stamps(await followed.output);
  return [...committed].map(([seq, at]) => (received.get(seq) ?? Number.NaN) - at);
}

/**
 * The writer with `followers` processes following: its milliseconds for `count` appends back to
 * back (`paceMs` 0), or, paced as a model streams, the median time of one append.
 */
async function writerMs(
  where: () => Promise<string>,
  count: number,
  followers: number,
  paceMs: number,
): Promise<number> {
  const place = await where();
  const follows: Promise<string>[] = [];
  for (let i = 0; i < followers; i++) follows.push((await startFollower(place, count + 1)).output);
  const written = await new Response(self("--writer", place, String(count), String(paceMs)).stdout).text();
  await Promise.all(follows);
  if (paceMs === 0) return Number(/total ([\d.]+)/.exec(written)?.[1]);
  const appendMs = written
    .split("\n")
    .filter((l) => /^\d+ /.test(l))
    .map((l) => Number(l.split(" ")[2]));
  return median(appendMs);
}

if (args[0] === "--writer") await writer(args[1] as string, Number(args[2]), Number(args[3]));
else if (args[0] === "--follower") await follower(args[1] as string, Number(args[2]));
else await main();

async function main(): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), "verbatim-bench-follow-"));
  let files = 0;
  const sqlite = async () => join(home, `journal-${files++}.db`);
  const server = args.includes("--postgres") ? await startPostgres({ durable: true }) : undefined;
  try {
    const figures: Record<string, unknown> = {};
    const count = quick ? 100 : 400;
    const report = (name: string, samples: number[]) => {
      const p50 = median(samples);
      const p99 = quantile(samples, 0.99);
      log(
        `${name}: commit -> follower p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${Math.max(...samples).toFixed(1)} ms`,
      );
      figures[name] = { p50, p99, max: Math.max(...samples) };
    };
    report("latency, sqlite", await latencies(await sqlite(), count));
    if (server) report("latency, postgres", await latencies(await freshDatabase(server), count));

    const runs = quick ? 2 : 4;
    const shapes = [
      { how: "back to back", paceMs: 0, appends: quick ? 3000 : 10_000 },
      { how: "one every 5 ms (a model's pace), median append", paceMs: 5, appends: count },
    ];
    for (const { how, paceMs, appends } of shapes) {
      const times = new Map<number, number[]>([
        [0, []],
        [1, []],
        [10, []],
      ]);
      for (let r = 0; r < runs; r++)
        for (const followers of times.keys())
          times.get(followers)?.push(await writerMs(sqlite, appends, followers, paceMs));
      const alone = median(times.get(0) ?? []);
      for (const [followers, samples] of times) {
        const ms = median(samples);
        log(
          `writer, ${appends} appends ${how}, ${followers} followers: ${ms.toFixed(3)} ms (${(ms / alone).toFixed(2)}x alone)`,
        );
        figures[`writer ${how}, ${followers} followers`] = { ms, ratio: ms / alone };
      }
    }
    process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
  } finally {
    await server?.stop();
    rmSync(home, { recursive: true, force: true });
  }
}
