/**
 * Opening a file so that what is used is what was checked: the file is opened first, then the
 * opened file itself is checked (a regular file, and, by the kernel's own name for the open
 * descriptor, inside the roots). A link swapped between a check and the open cannot win: the
 * check that counts is made on the descriptor that is then read or written.
 */
import {
  closeSync,
  constants,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readlinkSync,
  readSync,
  realpathSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { dirname } from "node:path";
import { insideAny, kindOf, PathError, realRoots, resolveReal } from "./resolve.ts";

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_NOCTTY } = constants;

/** An open regular file inside the roots. */
export type OpenedFile = { fd: number; size: number; path: string };

/** Where the open descriptor really is: the kernel's name for it, or (without /proc) the path resolved again and matched by identity. */
function openedPath(fd: number, path: string): string {
  if (process.platform === "linux") {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`, "utf8").replace(/ \(deleted\)$/, "");
    } catch {
      // no /proc: fall through
    }
  }
  const real = realpathSync(path);
  const now = statSync(real);
  const opened = fstatSync(fd);
  if (now.dev !== opened.dev || now.ino !== opened.ino)
    throw new PathError(`${path} changed while it was being opened; nothing was used. Try again.`);
  return real;
}

function checked(fd: number, path: string, roots: readonly string[]): OpenedFile {
  try {
    const stats = fstatSync(fd);
    if (stats.isDirectory())
      throw new PathError(`${path} is a directory, not a file. Use a file path (Glob lists files).`);
    if (!stats.isFile())
      throw new PathError(
        `${path} is ${kindOf(stats)}, not a regular file. Only regular files can be read or written.`,
      );
    const where = openedPath(fd, path);
    if (!insideAny(where, realRoots(roots))) {
      throw new PathError(`${path} leads to ${where}, outside the session's directories; it was not used.`);
    }
    return { fd, size: stats.size, path };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

const code = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code;

/**
 * Opens an existing file for reading. Never blocks on a pipe (opened non-blocking, then refused),
 * never takes a terminal. Throws a PathError the model can act on; ENOENT passes through.
 */
export function openForRead(path: string, roots: readonly string[]): OpenedFile {
  const fd = openSync(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
  return checked(fd, path, roots);
}

/** Closes an opened file. */
export const closeFile = (file: OpenedFile) => closeSync(file.fd);

/** Up to `max` bytes from `position` (fewer at the end of the file). */
export function readBytes(file: OpenedFile, position: number, max: number): Buffer {
  const buffer = Buffer.allocUnsafe(max);
  let got = 0;
  while (got < max) {
    const n = readSync(file.fd, buffer, got, max - got, position + got);
    if (n === 0) break;
    got += n;
  }
  return buffer.subarray(0, got);
}

/**
 * Where a write to `path` lands (links followed, a dangling one to its target), checked to be
 * inside the roots, with its directories made. For a client that writes the file itself.
 */
export function writeTarget(path: string, roots: readonly string[]): string {
  const target = resolveReal(path);
  if (!insideAny(target, realRoots(roots)))
    throw new PathError(`${path} leads to ${target}, outside the session's directories; nothing was written.`);
  mkdirSync(dirname(target), { recursive: true });
  return target;
}

/**
 * Writes `content` as the whole of the file `path` leads to, creating it (and its directories)
 * when absent. The target is where the path resolves, links followed; it is opened without
 * following a link at its last step, and created only where nothing is (never through a link),
 * then checked before anything is truncated or written.
 */
export function writeWhole(path: string, content: string, roots: readonly string[]): void {
  const target = writeTarget(path, roots);
  let fd: number;
  let created = false;
  try {
    fd = openSync(target, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
  } catch (error) {
    if (code(error) === "ELOOP")
      throw new PathError(`${path} changed while it was being written (a link appeared); nothing was written.`);
    if (code(error) === "ENXIO")
      throw new PathError(`${path} is a named pipe (FIFO), not a regular file; nothing was written.`);
    if (code(error) !== "ENOENT") throw error;
    try {
      fd = openSync(target, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY, 0o666);
    } catch (again) {
      if (code(again) === "EEXIST")
        throw new PathError(`${path} changed while it was being written; nothing was written. Try again.`);
      throw again;
    }
    created = true;
  }
  let file: OpenedFile;
  try {
    file = checked(fd, path, roots);
  } catch (error) {
    if (created) unlinkSync(target);
    throw error;
  }
  try {
    ftruncateSync(file.fd, 0);
    const bytes = Buffer.from(content, "utf8");
    let written = 0;
    while (written < bytes.length) written += writeSync(file.fd, bytes, written, bytes.length - written, written);
  } finally {
    closeSync(file.fd);
  }
}
