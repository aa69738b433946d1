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
 * The one "is this holder me?" check: true only when host, pid and start time all match this
 * process. A missing host or start time (a row written by an older version) never matches
 * another machine's pid: it counts as this process only on a pid match where the rest agrees,
 * so a container's small reused pid on another host is never taken for this process.
 */
export function isThisProcess(p: { pid: number; host?: string; startTime?: string }): boolean {
  const me = thisProcess();
  if (p.pid !== me.pid) return false;
  if (p.host !== undefined && p.host !== me.host) return false;
  if (p.startTime !== undefined && p.startTime !== "" && me.startTime !== "" && p.startTime !== me.startTime)
    return false;
  return true;
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
