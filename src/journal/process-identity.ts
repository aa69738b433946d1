/**
 * Who owns a session's lease: a process id plus the process's start time, so a recycled pid is
 * not mistaken for the owner that died.
 */
import { readFileSync } from "node:fs";

export type ProcessIdentity = { pid: number; startTime: string };

/** The process's start time in clock ticks since boot (Linux), or "" where /proc is absent. */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Field 2 (comm) may contain spaces and parentheses; fields after the last ')' are fixed.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[19];
  } catch {
    return process.platform === "linux" ? undefined : "";
  }
}

export function currentProcess(): ProcessIdentity {
  return { pid: process.pid, startTime: processStartTime(process.pid) ?? "" };
}

/** True if the process that took a lease is still the one running under that pid. */
export function isAlive(owner: ProcessIdentity): boolean {
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    // EPERM means it exists but belongs to someone else.
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  const start = processStartTime(owner.pid);
  if (start === undefined) return false;
  return owner.startTime === "" || start === "" || start === owner.startTime;
}
