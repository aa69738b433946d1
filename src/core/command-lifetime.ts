/**
 * A spawned command's lifetime, shared by hook commands and the Bash tool: the command leads its
 * own process group (spawned `detached`), a timeout or a cancel stops the whole tree (SIGTERM,
 * then SIGKILL after a grace period, see process-group.ts), and the command is done when its
 * leader exits, not when its pipes close (a background child may hold them open for ever): after
 * the exit the output still in the pipes is read for a short window, then whatever is left of a
 * stopped tree (a child that ignored SIGTERM) is killed.
 */
import { KILL_GRACE_MS, killGroup, ProcessTree } from "./process-group.ts";

export type Stopped = "timeout" | "cancel";

/** After the leader exits, how long to keep reading output still in the pipes. */
const DRAIN_MS = 250;

type Leader = { pid: number; exited: Promise<number>; exitCode: number | null; signalCode: unknown };

export type CommandLifetime = {
  /**
   * Resolves once the leader has exited and `output` has been read (or DRAIN_MS has passed), a
   * stopped tree's survivors killed: with why verbatim stopped it, if it did.
   */
  ended(output: Promise<unknown>): Promise<Stopped | undefined>;
  /** Lets go of the timer and the cancel signal; call it once the command's result is taken. */
  dispose(): void;
};

/** Call it right after spawning `child`, while it runs. */
export function commandLifetime(
  child: Leader,
  options: { timeoutMs: number; signal?: AbortSignal | undefined; graceMs?: number | undefined },
): CommandLifetime {
  const tree = new ProcessTree(child.pid);
  let stopped: Stopped | undefined;
  let killing: Promise<void> | undefined;
  const stop = (why: Stopped) => {
    if (stopped || child.exitCode !== null || child.signalCode !== null) return;
    stopped = why;
    killing = killGroup(child, options.graceMs ?? KILL_GRACE_MS, tree);
  };
  const timer = setTimeout(() => stop("timeout"), options.timeoutMs);
  const onAbort = () => stop("cancel");
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener("abort", onAbort, { once: true });
  return {
    async ended(output) {
      await child.exited;
      await Promise.race([output, Bun.sleep(DRAIN_MS)]);
      if (stopped) {
        await killing;
        tree.signal("SIGKILL");
      }
      return stopped;
    },
    dispose() {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
    },
  };
}
