/**
 * One name in a folder opened without following a link, so that what is checked and what is
 * changed are the same entry of the same folder, whatever is renamed or swapped meanwhile. The
 * folder is opened by its real path (`O_DIRECTORY | O_NOFOLLOW`: a link swapped in at its last
 * step is refused) and checked, on the open descriptor, to be inside the roots. The entry is then
 * named through the descriptor: on Linux `/proc/self/fd/N/name`, which the kernel resolves from
 * the open folder, so a folder renamed or replaced by a link after the open changes nothing (Bun
 * and Node have no `openat`/`unlinkat`; this is their effect without bun:ffi). Where there is no
 * /proc (macOS), the entry is named by the folder's real path, and before each change the folder
 * at that path is checked to still be the one opened (same device and inode): the checks are the
 * same, but a swap in the instant between that check and the change is not excluded there.
 */
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  lstatSync,
  openSync,
  readlinkSync,
  type statSync,
  unlinkSync,
} from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { removalSeam } from "./removal-seam.ts";
import { insideAny, PathError, realRoots, resolveReal } from "./resolve.ts";

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW } = constants;

/** A name in an open folder: `at` is how the entry is reached from that open folder. */
export type FolderEntry = { path: string; dirFd: number; at: string; viaProc: boolean; folder: string };

/** The identity of a file: what a change checks it still is. */
export type FileIdentity = { dev: number; ino: number };

const code = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code;

/**
 * Opens the folder `path` is in (inside the roots) and names `path`'s entry in it. Throws a
 * PathError for a folder outside the roots or one swapped for a link; ENOENT passes through.
 */
export function openEntry(path: string, roots: readonly string[]): FolderEntry {
  const absolute = resolve(path);
  const name = basename(absolute);
  if (name === "" || name === "." || name === "..") throw new PathError(`${path} names no file`);
  const folder = resolveReal(dirname(absolute));
  if (!insideAny(folder, realRoots(roots))) throw new PathError(`${path} leads outside the session's directories`);
  removalSeam.at?.("parent", path);
  let dirFd: number;
  try {
    dirFd = openSync(folder, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  } catch (error) {
    if (code(error) === "ELOOP" || code(error) === "ENOTDIR")
      throw new PathError(`the folder of ${path} changed (a link appeared) while it was being opened`);
    throw error;
  }
  try {
    const viaProc = existsSync(`/proc/self/fd/${dirFd}`);
    const opened = viaProc ? readlinkSync(`/proc/self/fd/${dirFd}`, "utf8") : folder;
    if (!insideAny(opened, realRoots(roots)))
      throw new PathError(`the folder of ${path} is ${opened}, outside the session's directories`);
    if (!viaProc) sameFolder(dirFd, folder, path);
    return { path, dirFd, viaProc, folder, at: viaProc ? `/proc/self/fd/${dirFd}/${name}` : join(folder, name) };
  } catch (error) {
    closeSync(dirFd);
    throw error;
  }
}

export const closeEntry = (entry: FolderEntry) => closeSync(entry.dirFd);

/**
 * Opens the entry itself, never through a link (a link is a PathError), and checks it is a
 * regular file. ENOENT passes through.
 */
export function openEntryFile(entry: FolderEntry, flags: number): { fd: number; size: number } & FileIdentity {
  if (!entry.viaProc) sameFolder(entry.dirFd, entry.folder, entry.path);
  let fd: number;
  try {
    fd = openSync(entry.at, flags | O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (error) {
    if (code(error) === "ELOOP") throw new PathError("it is a link now");
    if (code(error) === "ENXIO") throw new PathError("it is a named pipe now");
    throw error;
  }
  const stats = fstatSync(fd);
  if (!stats.isFile()) {
    closeSync(fd);
    throw new PathError("it is no longer a regular file");
  }
  return { fd, size: stats.size, dev: stats.dev, ino: stats.ino };
}

/**
 * Removes the entry only if it is still the regular file `file` (same device and inode) in the
 * open folder: a link, or another file put in its place, is left alone (a PathError).
 */
export function removeEntry(entry: FolderEntry, file: FileIdentity): void {
  removalSeam.at?.("unlink", entry.path);
  if (!entry.viaProc) sameFolder(entry.dirFd, entry.folder, entry.path);
  const now = lstatSync(entry.at, { throwIfNoEntry: false });
  if (!now) throw new PathError("it was removed meanwhile");
  if (!now.isFile() || now.dev !== file.dev || now.ino !== file.ino)
    throw new PathError("it was replaced while it was being removed");
  unlinkSync(entry.at);
}

/** Without /proc: the folder at its real path must still be the one open. */
function sameFolder(dirFd: number, folder: string, path: string): void {
  const opened = fstatSync(dirFd);
  let now: ReturnType<typeof statSync> | undefined;
  try {
    now = lstatSync(folder);
  } catch {
    now = undefined;
  }
  if (!now?.isDirectory() || now.dev !== opened.dev || now.ino !== opened.ino)
    throw new PathError(`the folder of ${path} changed while it was being used`);
}
