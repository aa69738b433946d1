/**
 * SIGTERM (how editors and test harnesses stop an agent) and SIGHUP (its terminal went away) end
 * the agent as a closed stdin does: its sessions close (running turns cancelled, leases given
 * up), then the journal (SQLite folds its write-ahead log into the database and truncates it, so
 * the next process does not read through it). Without this a signal killed the process where it
 * stood. What was journaled is safe either way: nothing waits on a signal to be written.
 *
 * The exit status is 128 + the signal's number (143, 129), as for a process the signal killed. A
 * shutdown that takes longer than `SHUTDOWN_MS` (a hook or a tool that will not stop) is cut
 * short, and a second signal exits at once.
 */
import { log } from "../shared/log.ts";

/** At most how long a signalled agent spends closing before it exits anyway. */
export const SHUTDOWN_MS = 2000;

const SIGNALS = { SIGHUP: 1, SIGTERM: 15 } as const;

/** Exits on SIGTERM and SIGHUP once `shutdown` is done (or `SHUTDOWN_MS` passed). Returns the uninstaller. */
export function exitOnSignals(shutdown: () => Promise<void>): () => void {
  let stopping = false;
  const handlers = Object.entries(SIGNALS).map(([signal, number]) => {
    const handler = () => {
      const code = 128 + number;
      if (stopping) process.exit(code);
      stopping = true;
      const late = setTimeout(() => process.exit(code), SHUTDOWN_MS);
      shutdown()
        .catch((error: unknown) => log.warn(`closing after ${signal} failed`, error))
        .finally(() => {
          clearTimeout(late);
          process.exit(code);
        });
    };
    process.on(signal, handler);
    return [signal, handler] as const;
  });
  return () => {
    for (const [signal, handler] of handlers) process.off(signal, handler);
  };
}
