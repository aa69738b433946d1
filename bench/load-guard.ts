/**
 * `bun bench/load-guard.ts [--base REV] [--runs N] [--source]`: a load's figures against another
 * commit (REV, default the previous one: HEAD^) built in the same run, interleaved run by run
 * (base, this, then this, base, ...), medians of at least 9 runs each; fails (exit 1) when a figure of this
 * checkout is past 1.10x the base's, as bench/cold-start.ts fails past the start budget. So a
 * capability that slows a reopen fails its benchmark, not a user.
 *
 * The figures, each build loading a journal its own code wrote (bench/lib/write-cached.ts:
 * streamed turns, each turn's replay cache row stored at its end, as a live session leaves them):
 *
 * - cold initialize: spawn → `initialize` answered;
 * - warm load, 500 turns: `session/load` request → response, in an agent whose engine has loaded
 *   (sent once it has loaded and gone quiet, reopen.ts `settled`: how an editor reopens in a
 *   running agent, without the idle seconds that slow this machine's next work);
 * - cold reopen, 10 and 500 turns: spawn → `initialize` → `session/load` answered, the load sent the
 *   moment `initialize` is answered (one process per chat);
 * - 10,000 turns in a running agent (sent the same way): request → response, and that load's peak
 *   memory over the agent's idle memory (its RSS when the load is sent).
 *
 * It also prints issue 57's cold-reopen target: cold reopen ≤ 1.1 × (cold initialize + warm load),
 * for each build (`--source`: this checkout from source as well).
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { timeToInitialize } from "./cold-start.ts";
import { buildAll, ROOT, type Build } from "./lib/agents.ts";
import { median } from "./lib/stats.ts";
import { loadOnce } from "./reopen.ts";

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const runs = Math.max(9, Number(option("runs") ?? 9));
const baseRev = option("base") ?? "HEAD^";
const withSource = args.includes("--source");
/** Past this ratio of this checkout's median to the base's, the guard fails. */
const LIMIT = 1.1;
const SIZES = [10, 500, 10_000];
const log = (message: string) => process.stderr.write(`load-guard: ${message}\n`);

const git = (...command: string[]): string => {
  const r = Bun.spawnSync(["git", ...command], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`git ${command.join(" ")} failed: ${r.stderr.toString()}`);
  return r.stdout.toString().trim();
};

/** REV's tree under bench/.build/ (ignored by git), with this checkout's node_modules and journal writer. */
function checkout(rev: string): { root: string; sha: string } {
  const sha = git("rev-parse", "--short", rev);
  const root = join(ROOT, "bench", ".build", `base-${sha}`);
  if (!existsSync(join(root, "package.json"))) {
    rmSync(root, { recursive: true, force: true });
    mkdirSync(root, { recursive: true });
    const archive = Bun.spawnSync(["sh", "-c", `git archive ${sha} | tar -x -C '${root}'`], { cwd: ROOT });
    if (archive.exitCode !== 0) throw new Error(`extracting ${rev} failed`);
    symlinkSync(join(ROOT, "node_modules"), join(root, "node_modules"));
  }
  // The base may predate the writer; it runs on the base's own code either way.
  cpSync(join(ROOT, "bench", "lib", "write-cached.ts"), join(root, "bench", "lib", "write-cached.ts"));
  return { root, sha };
}

/** Builds the checkout at `root` with its own build script (its dist/ is its own). */
function buildAt(root: string): Build {
  const result = Bun.spawnSync(
    [
      process.execPath,
      "-e",
      `const {buildAll}=await import(${JSON.stringify(join(root, "bench/lib/agents.ts"))});console.log(JSON.stringify(buildAll()))`,
    ],
    { cwd: root, stdout: "pipe", stderr: "inherit" },
  );
  if (result.exitCode !== 0) throw new Error(`building ${root} failed`);
  const built = JSON.parse(result.stdout.toString()) as Omit<Build, "dispose">;
  return { ...built, dispose: () => rmSync(built.dir, { recursive: true, force: true }) };
}

/** A home of its own for `root`'s build, with the sessions written by `root`'s code. */
function journalOf(root: string, name: string) {
  const home = mkdtempSync(join(tmpdir(), `verbatim-load-guard-${name}-`));
  const env = { VERBATIM_HOME: home, XDG_CONFIG_HOME: join(home, "config") };
  const cwd = join(home, "project");
  const r = Bun.spawnSync(
    [process.execPath, join(root, "bench/lib/write-cached.ts"), join(home, "journal.db"), cwd, SIZES.join(",")],
    { cwd: root, env: { ...process.env, ...env }, stdout: "inherit", stderr: "inherit" },
  );
  if (r.exitCode !== 0) throw new Error(`writing ${name}'s sessions failed`);
  return { home, env, cwd };
}

type Subject = { name: string; entry: string; env: Record<string, string>; cwd: string };
type Figures = Record<string, number[]>;

/** One run of every figure for `s`. */
async function runOnce(s: Subject, into: Figures, cpu: Figures): Promise<void> {
  const add = (figure: string, value: number) => (into[figure] ??= []).push(value);
  const addCpu = (figure: string, value: number) => (cpu[figure] ??= []).push(value);
  add("cold initialize (ms)", await timeToInitialize(s.entry, s.env));
  const warm = await loadOnce(s.entry, s.env, "ses_500", s.cwd, "settled");
  add("warm load, 500 turns (ms)", warm.ms);
  addCpu("warm load, 500 turns (ms)", warm.cpuMs);
  const cold10 = await loadOnce(s.entry, s.env, "ses_10", s.cwd);
  add("cold reopen, 10 turns (ms)", cold10.fromSpawnMs);
  addCpu("cold reopen, 10 turns (ms)", cold10.cpuFromSpawnMs);
  const cold = await loadOnce(s.entry, s.env, "ses_500", s.cwd);
  add("cold reopen, 500 turns (ms)", cold.fromSpawnMs);
  addCpu("cold reopen, 500 turns (ms)", cold.cpuFromSpawnMs);
  const big = await loadOnce(s.entry, s.env, "ses_10000", s.cwd, "settled");
  add("10,000 turns, running agent (ms)", big.ms);
  addCpu("10,000 turns, running agent (ms)", big.cpuMs);
  add("10,000 turns: peak / idle memory", big.peak / big.rssAtLoad);
}

const target = (f: Figures): string => {
  const m = (k: string) => median(f[k] ?? []);
  const limit = m("cold initialize (ms)") + m("warm load, 500 turns (ms)");
  return `${m("cold reopen, 500 turns (ms)").toFixed(1)} ms = ${(m("cold reopen, 500 turns (ms)") / limit).toFixed(2)} x (cold initialize + warm load: ${limit.toFixed(1)} ms)`;
};

log(`building this checkout and ${baseRev}`);
const mine = buildAll();
const { root: baseRoot, sha } = checkout(baseRev);
const base = buildAt(baseRoot);
log("writing each build's sessions with its own code");
const mineJournal = journalOf(ROOT, "this");
const baseJournal = journalOf(baseRoot, "base");
const subjects: Subject[] = [
  { name: "base", entry: base.verbatim, ...baseJournal },
  { name: "this", entry: mine.verbatim, ...mineJournal },
  ...(withSource ? [{ name: "source", entry: join(ROOT, "src", "cli.ts"), ...mineJournal }] : []),
];
const figures = new Map<string, Figures>(subjects.map((s) => [s.name, {}]));
/** The agent's own CPU time for the same figures: not judged, but steadier than wall time on a shared machine. */
const cpuFigures = new Map<string, Figures>(subjects.map((s) => [s.name, {}]));
let failed = false;
try {
  process.stdout.write(
    `load average at start: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}; base ${sha}; ${runs} runs\n`,
  );
  // One of each first, not counted (the OS file cache).
  for (const s of subjects) await runOnce(s, {}, {});
  for (let i = 0; i < runs; i++) {
    log(`run ${i + 1} of ${runs}`);
    // Base first on even runs, last on odd ones: what a run leaves behind (the pipe's and the disk's
    // caches, a process exiting) falls on each build alike.
    const order = i % 2 === 0 ? subjects : [...subjects].reverse();
    for (const s of order) await runOnce(s, figures.get(s.name) as Figures, cpuFigures.get(s.name) as Figures);
  }
  const b = figures.get("base") as Figures;
  const t = figures.get("this") as Figures;
  for (const figure of Object.keys(t)) {
    const ratio = median(t[figure] ?? []) / median(b[figure] ?? []);
    const over = ratio > LIMIT;
    failed ||= over;
    process.stdout.write(
      `${figure.padEnd(36)} base ${median(b[figure] ?? [])
        .toFixed(2)
        .padStart(8)}  this ${median(t[figure] ?? [])
        .toFixed(2)
        .padStart(8)}  this/base ${ratio.toFixed(3)}${over ? `  PAST ${LIMIT}x` : ""}\n`,
    );
  }
  const bc = cpuFigures.get("base") as Figures;
  const tc = cpuFigures.get("this") as Figures;
  for (const figure of Object.keys(tc)) {
    const m = (f: Figures) => median(f[figure] ?? []);
    process.stdout.write(
      `${`  agent CPU: ${figure}`.padEnd(36)} base ${m(bc).toFixed(2).padStart(8)}  this ${m(tc).toFixed(2).padStart(8)}  this/base ${(m(tc) / m(bc)).toFixed(3)}\n`,
    );
  }
  process.stdout.write(
    `load average at end: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}\n`,
  );
  for (const [name, f] of figures) process.stdout.write(`cold reopen target, ${name}: ${target(f)}\n`);
} finally {
  mine.dispose();
  base.dispose();
  rmSync(mineJournal.home, { recursive: true, force: true });
  rmSync(baseJournal.home, { recursive: true, force: true });
}
if (failed) process.exit(1);
