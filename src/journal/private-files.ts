/**
 * Creating the journal's directory and files so that only the user can read them. bun:sqlite has
 * no mode option, so the files are created here first, never through a process-wide umask.
 *
 * An existing file is never opened here: closing any descriptor of a file releases every POSIX
 * lock this process holds on it, SQLite's included. Released locks on the `-shm` file let another
 * process take the journal for new, reinitialize the shared memory this process has mapped, and
 * this process then dies of a bus error (SQLite's own files take the database file's mode).
 */
import { chmodSync, closeSync, mkdirSync, openSync, statSync } from "node:fs";

export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // mkdir honours the umask and leaves an existing directory alone: set the mode explicitly.
  if ((statSync(dir).mode & 0o777) !== 0o700) chmodSync(dir, 0o700);
}

/** Creates `path` (mode 0600) if it is missing, or makes it 0600; never opens an existing file. */
export function ensurePrivateFile(path: string): void {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) {
    try {
      // Exclusive: a file this process did not have cannot hold its locks.
      closeSync(openSync(path, "wx", 0o600));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
  if (((stat ?? statSync(path)).mode & 0o777) !== 0o600) chmodSync(path, 0o600);
}
