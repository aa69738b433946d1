/**
 * Writing a session into a file the user named (`verbatim export ID --file F`) so that it is the
 * user's own and private, whatever was at F: the session is written into a new private file
 * beside F (core/confinement/private-write.ts) that is then renamed over F. A rename replaces the name itself, never what a
 * link there points to, so a link planted at F is not followed. A link at F, or a file there that
 * belongs to another account, is refused before anything is written: the user meant a file of
 * their own.
 */
import { closeSync, fsyncSync, lstatSync, renameSync, type Stats } from "node:fs";
import { resolve } from "node:path";
import { discardTemporary, openPrivateTemporary } from "../core/confinement/private-write.ts";

/** F cannot be written as the user's own file; the message says why and what to do. */
export class ExportFileError extends Error {
  override name = "ExportFileError";
}

const kindOf = (stats: Stats) =>
  stats.isDirectory()
    ? "a directory"
    : stats.isFIFO()
      ? "a pipe"
      : stats.isSocket()
        ? "a socket"
        : "not a regular file";

/** Throws an ExportFileError unless `path` is missing or a regular file of this account's. */
export function checkExportTarget(path: string): void {
  const stats = lstatSync(path, { throwIfNoEntry: false });
  if (!stats) return;
  if (stats.isSymbolicLink())
    throw new ExportFileError(
      `${path} is a link; verbatim writes a session only into a file of your own, never through a link (remove the link or choose another name)`,
    );
  if (!stats.isFile()) throw new ExportFileError(`${path} is ${kindOf(stats)}; choose a file name`);
  const uid = process.getuid?.();
  if (uid !== undefined && stats.uid !== uid)
    throw new ExportFileError(
      `${path} belongs to another account (uid ${stats.uid}); verbatim does not write a session into someone else's file (choose another name)`,
    );
}

/**
 * Writes `path` with what `write` puts into the descriptor it is given, as a new private file of
 * this account's (see above). Throws an ExportFileError when `path` cannot be that; on any
 * failure, nothing is left behind and whatever was at `path` is unchanged.
 */
export async function writePrivateFile(path: string, write: (fd: number) => Promise<void>): Promise<void> {
  const target = resolve(path);
  checkExportTarget(target);
  const { fd, temporary } = openPrivateTemporary(target);
  let renamed = false;
  try {
    try {
      await write(fd);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, target);
    renamed = true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EPERM" || code === "EACCES")
      throw new ExportFileError(
        `cannot put the export at ${path}: ${(error as Error).message} (another account's file may be there now; choose another name)`,
      );
    throw error;
  } finally {
    if (!renamed) discardTemporary(temporary);
  }
}
