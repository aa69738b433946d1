/**
 * Stopping a command with everything it started. A child spawned with `detached: true` leads its
 * own group (a new session), so one signal to the group reaches its background children; but a
 * descendant that called `setsid` (or `setpgid`) left the group. So before each signal the tree
 * is walked through `/proc` (every process whose parent chain leads to the leader or to a member
 * of its group), and each process found is signalled as well as the group. Processes found once
 * are remembered by pid and start time: a descendant whose parent already exited (re-parented to
 * init) is still signalled, and a pid reused by an unrelated process never is.
 *
 * Out of reach: a daemon that detached and whose parent exited before the first walk (it has no
 * link to the command any more). Liveness is judged by the leader's exit, never by a "killed"
 * flag (a signal sent is not a process gone).
 */
import { readdirSync, readFileSync } from "node:fs";

/** How long a group gets to exit after SIGTERM before SIGKILL. */
export const KILL_GRACE_MS = 2000;

/** Sends `signal` to the whole group led by `pid`. A group already gone is not an error. */
export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}

type Stat = { pid: number; ppid: number; pgid: number; start: string };

/** pid, parent, group and start time of a process, from `/proc/<pid>/stat`; undefined once it is gone. */
function statOf(pid: number): Stat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // The command name is in parentheses and may hold anything: the fields follow the last ")".
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  // state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime priority nice threads itrealvalue starttime
  return { pid, ppid: Number(fields[1]), pgid: Number(fields[2]), start: fields[19] ?? "" };
}

function allProcesses(): Stat[] {
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return []; // no /proc (not Linux): the group signal is all there is
  }
  const out: Stat[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    const stat = statOf(Number(name));
    if (stat) out.push(stat);
  }
  return out;
}

/** A command's process tree: its leader's group plus every descendant seen so far. */
export class ProcessTree {
  /** Descendants seen, by pid, with their start time. */
  readonly #seen = new Map<number, string>();
  /** The leader's start time: once it has exited its pid may be reused, and that process's children are none of ours. */
  readonly #leaderStart: string | undefined;

  /** Call it right after spawning the leader, while it runs. */
  constructor(readonly leader: number) {
    this.#leaderStart = statOf(leader)?.start;
  }

  /** Walks `/proc` for the group's members and the descendants of everything known, remembering them. */
  walk(): void {
    const processes = allProcesses();
    const children = new Map<number, Stat[]>();
    for (const p of processes) {
      const list = children.get(p.ppid);
      if (list) list.push(p);
      else children.set(p.ppid, [p]);
    }
    const queue: number[] = [];
    if (this.#leaderStart !== undefined && statOf(this.leader)?.start === this.#leaderStart) queue.push(this.leader);
    // A group id is not reused while the group has members: these are the command's.
    for (const p of processes) if (p.pgid === this.leader && p.pid !== this.leader) queue.push(p.pid);
    for (const [pid, start] of this.#seen) if (statOf(pid)?.start === start) queue.push(pid);
    const visited = new Set<number>();
    while (queue.length > 0) {
      const pid = queue.pop() as number;
      if (visited.has(pid)) continue;
      visited.add(pid);
      for (const child of children.get(pid) ?? []) {
        if (!this.#seen.has(child.pid)) this.#seen.set(child.pid, child.start);
        queue.push(child.pid);
      }
      if (pid !== this.leader) {
        const stat = statOf(pid);
        if (stat && !this.#seen.has(pid)) this.#seen.set(pid, stat.start);
      }
    }
  }

  /** Walks again, then signals the group and every remembered descendant still running as itself. */
  signal(signal: NodeJS.Signals): void {
    this.walk();
    signalGroup(this.leader, signal);
    for (const [pid, start] of this.#seen) {
      if (statOf(pid)?.start !== start) {
        this.#seen.delete(pid);
        continue;
      }
      try {
        process.kill(pid, signal);
      } catch {
        // Gone between the check and the signal.
      }
    }
  }
}

/**
 * SIGTERM to the whole tree, then SIGKILL to whatever is left after `graceMs` (or at once if the
 * leader has exited: children that outlive the leader are still in the tree). Resolves once the
 * SIGKILL is sent. Pass `tree` to signal it again later (what survives after the leader's exit).
 */
export async function killGroup(
  child: { pid: number; exited: Promise<number> },
  graceMs = KILL_GRACE_MS,
  tree = new ProcessTree(child.pid),
): Promise<void> {
  tree.signal("SIGTERM");
  await Promise.race([child.exited, Bun.sleep(graceMs)]);
  tree.signal("SIGKILL");
}
