/**
 * Process groups: a child spawned with `detached: true` leads its own group (a new session), so
 * one signal to the group reaches everything it started, background children included.
 * Liveness is judged by the leader's exit, never by a "killed" flag (a signal sent is not a
 * process gone).
 */

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

/**
 * SIGTERM to the whole group, then SIGKILL to whatever is left after `graceMs` (or at once if
 * the leader has exited: children that outlive the leader are still in its group).
 */
export async function killGroup(child: { pid: number; exited: Promise<number> }, graceMs = KILL_GRACE_MS): Promise<void> {
  signalGroup(child.pid, "SIGTERM");
  const exited = await Promise.race([child.exited.then(() => true), Bun.sleep(graceMs).then(() => false)]);
  if (!exited) signalGroup(child.pid, "SIGKILL");
  signalGroup(child.pid, "SIGKILL");
}
