/**
 * Who owns a session's lease: a process id plus the process's start time, so a recycled pid is
 * not mistaken for the owner that died.
 */
import { readFileSync } from "node:fs";
import { hostname } from "node:os";

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

/** A process anywhere a shared journal reaches: the machine it runs on, its pid and start time. */
export type HostProcess = ProcessIdentity & { host: string };

let self: HostProcess | undefined;

/** This process, as it names itself in leases, claims and holder facts (computed once). */
export function thisProcess(): HostProcess {
  self ??= { host: hostname(), ...currentProcess() };
  return self;
}

/**
 * Whether two names of a process name the same one: host and pid equal, and start times equal
 * where both are known. A missing host (a row of an older version) never matches a named one, so
 * a container's small pid on another machine is never taken for this process; a missing or empty
 * start time (an older row, a system without /proc) leaves the decision to host and pid.
 */
export function sameProcess(
  a: { pid: number; host?: string; startTime?: string },
  b: { pid: number; host?: string; startTime?: string },
): boolean {
  if (a.pid !== b.pid || (a.host ?? "") !== (b.host ?? "")) return false;
  return !a.startTime || !b.startTime || a.startTime === b.startTime;
}

/**
 * The one "is this holder me?" check, used wherever a lease holder, a claim or a request names a
 * process: true only when host, pid and start time all match this process (see `sameProcess`).
 */
export function isThisProcess(p: { pid: number; host?: string; startTime?: string }): boolean {
  return sameProcess(p, thisProcess());
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
