/**
 * The programs a benchmark run starts: verbatim (built and from source) and the floors, built
 * fresh at the start of each run the way verbatim ships.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";

export const ROOT = join(import.meta.dir, "..", "..");
export const BUN = process.execPath;
/** Where the floors of a run are built (ignored by git). */
const BUILD_DIR = join(ROOT, "bench", ".build");

export type Build = {
  verbatim: string;
  floor: string;
  /** No SDK: a fixed answer to stdin's first line (what starting Bun costs). */
  rawFloor: string;
  streamFloor: string;
  liveAgent: string;
  readFloor: string;
  dir: string;
  dispose(): void;
};

/**
 * Builds the shipped artifact (as `bun run build` does) and the floors the same way, into a fresh
 * directory in the checkout, next to `dist/`: Bun lists the directories above a program it starts,
 * and a crowded one (a shared /tmp holds thousands of entries) costs milliseconds a start, which
 * would slow the floors and not verbatim.
 */
export function buildAll(): Build {
  mkdirSync(BUILD_DIR, { recursive: true });
  const dir = mkdtempSync(join(BUILD_DIR, "run-"));
  // `bun run build`'s script, into this run's own directory: a build of dist/ by someone else in
  // the same checkout during the run can then not pull the bundles from under it.
  run([BUN, join(ROOT, "scripts", "build.ts"), join(dir, "dist")], ROOT);
  const bundle = (entry: string, name: string) => {
    run([BUN, "build", entry, "--target=bun", "--bytecode", "--minify", "--outdir", dir, "--entry-naming", name], ROOT);
    return join(dir, name);
  };
  return {
    verbatim: join(dir, "dist", "verbatim.js"),
    floor: bundle(join(ROOT, "bench", "floor", "initialize-only.ts"), "floor.js"),
    rawFloor: bundle(join(ROOT, "bench", "floor", "raw-initialize.ts"), "raw-floor.js"),
    streamFloor: bundle(join(ROOT, "bench", "floor", "stream-only.ts"), "stream-floor.js"),
    liveAgent: bundle(join(ROOT, "bench", "agents", "live-agent.ts"), "live-agent.js"),
    readFloor: bundle(join(ROOT, "bench", "floor", "read-parse.ts"), "read-floor.js"),
    dir,
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

function run(cmd: string[], cwd: string): void {
  const result = Bun.spawnSync(cmd, { cwd, stdout: "pipe", stderr: "pipe" });
  if (result.exitCode !== 0) {
    throw new Error(`${cmd.join(" ")} failed:\n${result.stderr.toString()}${result.stdout.toString()}`);
  }
}

export type Agent = {
  proc: Bun.Subprocess<"pipe", "pipe", "inherit">;
  send(line: string): void;
  stop(): Promise<void>;
};

/** Starts `bun <entry>` with its stdio as pipes (stderr shown, for failures). */
export function start(entry: string, env: Record<string, string> = {}): Agent {
  const proc = Bun.spawn([BUN, entry], {
    cwd: ROOT,
    stdin: "pipe",
    stdout: "pipe",
    stderr: "inherit",
    env: { ...process.env, ...env },
  });
  return {
    proc,
    send: (line) => {
      proc.stdin.write(line);
      void proc.stdin.flush();
    },
    stop: async () => {
      void proc.stdin.end();
      proc.kill();
      await proc.exited;
    },
  };
}
