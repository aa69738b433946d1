/** Watching real processes in tests: whether a pid still runs, and pids a script wrote down. */
import { existsSync, readFileSync } from "node:fs";

/** True while `pid` runs. A zombie (exited, not yet reaped) does not count as running. */
export function alive(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return false;
  }
  // The state follows the command name, which is in parentheses and may hold spaces.
  const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
  return state !== "Z" && state !== "X";
}

/** Waits (generously) until every file exists and holds a pid, and returns the pids. */
export async function pidsFrom(files: string[], timeoutMs = 10_000): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const pids = files.map((f) => (existsSync(f) ? Number(readFileSync(f, "utf8").trim()) : NaN));
    if (pids.every((p) => Number.isInteger(p) && p > 0)) return pids;
    if (Date.now() > deadline) throw new Error(`timed out waiting for pid files ${files.join(", ")}`);
    await Bun.sleep(10);
  }
}

/** Waits (generously) until none of `pids` runs; false if some still run at the deadline. */
export async function allGone(pids: number[], timeoutMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (pids.some(alive)) {
    if (Date.now() > deadline) return false;
    await Bun.sleep(20);
  }
  return true;
}
