/**
 * Whether stdin is a terminal, asked without loading node:tty: `process.stdin` (and node:tty's
 * `isatty`) cost about 20 ms to load on this machine, as much as the rest of the start path, and an
 * editor's stdin is a pipe. Only a character device can be a terminal, and an fstat says which it
 * is; only then is node:tty asked. Never throws: a closed stdin is not a terminal.
 */
import { fstatSync } from "node:fs";

export function stdinIsTerminal(): boolean {
  try {
    if (!fstatSync(0).isCharacterDevice()) return false;
  } catch {
    return false;
  }
  return process.stdin.isTTY === true;
}
