/**
 * Writing a file only the user can read (the user config file: it may hold provider keys), whole,
 * so that nobody else can read it, receive it or swap it, and an interrupted write leaves the old
 * file, never half a new one.
 *
 * - The folder must be the user's alone to write: one that others can write (or that another
 *   account owns) is refused, since whoever can write there can replace the file, or put a link
 *   where verbatim writes. A folder verbatim creates is made 0700.
 * - The new text goes to a temporary with an unpredictable name, created exclusively without
 *   following a link (O_CREAT|O_EXCL|O_NOFOLLOW), made 0600 on its descriptor before a byte is
 *   written, synced, then renamed over the file.
 */
import {
  chmodSync,
  closeSync,
  constants,
  fchmodSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";

/** A folder that is not the user's alone: nothing was written. The message says what to do. */
export class PrivateWriteError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PrivateWriteError";
  }
}

/**
 * 96 random bits in hex, from the Web Crypto global: node:crypto would load Node's stream modules
 * with it, about 20 ms on the agent's start path (the agent imports this module).
 */
const unpredictableName = (): string => Buffer.from(crypto.getRandomValues(new Uint8Array(12))).toString("hex");

const octal = (mode: number) => (mode & 0o777).toString(8).padStart(3, "0");

/**
 * Why `dir` (an existing folder) is not private to this user, or undefined when it is: owned by
 * this user and writable by nobody else. Follows links: the folder a link leads to is the one checked.
 */
export function folderProblem(dir: string): string | undefined {
  const stats = statSync(dir);
  if (!stats.isDirectory()) return `${dir} is not a folder`;
  const uid = process.getuid?.();
  if (uid !== undefined && stats.uid !== uid)
    return `${dir} belongs to another account (uid ${stats.uid}), which could read or replace what verbatim saves there`;
  if ((stats.mode & 0o022) !== 0) {
    const who = (stats.mode & 0o002) !== 0 ? "every account" : "its group";
    return `${dir} is mode ${octal(stats.mode)}: ${who} can write there, and so replace what verbatim saves there or put a link where it writes; make it yours alone with: chmod go-w ${dir}`;
  }
  return undefined;
}

/** Creates `dir` 0700 when missing; refuses one that exists and is not private (see `folderProblem`). */
function ensureOwnFolder(dir: string): void {
  const existed = statSync(dir, { throwIfNoEntry: false }) !== undefined;
  if (!existed) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // mkdir honours the umask; a folder verbatim created is exactly 0700.
    chmodSync(dir, 0o700);
  }
  const problem = folderProblem(dir);
  if (problem)
    throw new PrivateWriteError(
      `verbatim saves private files only in a folder that is yours alone, and ${problem}. Nothing was saved.`,
    );
}

/**
 * Writes `text` as the whole of `path`, mode 0600, through a private temporary renamed over it.
 * Throws `PrivateWriteError` (nothing written) when `path`'s folder is not the user's alone.
 */
export function writePrivateFile(path: string, text: string): void {
  ensureOwnFolder(dirname(path));
  replacePrivately(path, Buffer.from(text, "utf8"));
}

/**
 * A new file beside `path` for its next content: an unpredictable name, created exclusively and
 * never through a link, made 0600 on its descriptor before the first byte whatever the umask. It
 * is in the folder a link at `path`'s folder (if any) leads to, so a rename over `path` stays on
 * one file system; the rename replaces the name, never what a link at `path` points to.
 */
export function openPrivateTemporary(path: string): { fd: number; temporary: string } {
  const temporary = join(realpathSync(dirname(path)), `.${basename(path)}.${unpredictableName()}.tmp`);
  const fd = openSync(
    temporary,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW | constants.O_NOCTTY,
    0o600,
  );
  try {
    fchmodSync(fd, 0o600);
  } catch (error) {
    closeSync(fd);
    discardTemporary(temporary);
    throw error;
  }
  return { fd, temporary };
}

/** Removes a temporary that was not renamed into place (or is gone already). */
export function discardTemporary(temporary: string): void {
  try {
    unlinkSync(temporary);
  } catch {
    // Already renamed or never there: nothing to clean.
  }
}

/**
 * Creates `path` holding `text`, mode 0600, only when nothing is there: the text goes to a private
 * temporary (as `writePrivateFile`'s), synced, then linked into place, and a link never replaces
 * what another process put there first. False when `path` existed (nothing written). Throws
 * `PrivateWriteError` (nothing written) when `path`'s folder is not the user's alone.
 */
export function createPrivateFile(path: string, text: string): boolean {
  ensureOwnFolder(dirname(path));
  const temporary = writtenTemporary(path, Buffer.from(text, "utf8"));
  try {
    linkSync(temporary, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    discardTemporary(temporary);
  }
}

/**
 * `bytes` as the whole of `path`, mode 0600, through a private temporary (`openPrivateTemporary`)
 * synced and renamed over it. Checks nothing about the folder.
 */
function replacePrivately(path: string, bytes: Uint8Array): void {
  const temporary = writtenTemporary(path, bytes);
  try {
    renameSync(temporary, path);
  } catch (error) {
    discardTemporary(temporary);
    throw error;
  }
}

/** A private temporary beside `path` (`openPrivateTemporary`) holding `bytes`, synced. */
function writtenTemporary(path: string, bytes: Uint8Array): string {
  const { fd, temporary } = openPrivateTemporary(path);
  try {
    try {
      for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    discardTemporary(temporary);
    throw error;
  }
  return temporary;
}
