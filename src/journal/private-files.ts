/**
 * Creating the journal's directory and files so that only the user can read them. bun:sqlite has
 * no mode option, so the files are created here first, never through a process-wide umask.
 */
import { chmodSync, closeSync, mkdirSync, openSync, statSync } from "node:fs";

export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // mkdir honours the umask and leaves an existing directory alone: set the mode explicitly.
  if ((statSync(dir).mode & 0o777) !== 0o700) chmodSync(dir, 0o700);
}

export function ensurePrivateFile(path: string): void {
  closeSync(openSync(path, "a", 0o600));
  if ((statSync(path).mode & 0o777) !== 0o600) chmodSync(path, 0o600);
}
