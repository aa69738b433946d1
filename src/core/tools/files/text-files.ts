/**
 * Reading and writing text files for tools: through the client's editor (`fs/*`) when it offers
 * that, so unsaved buffers are seen, and the local disk otherwise. Paths are already confined;
 * the file itself is opened and checked by the confinement module, so a link swapped since the
 * check, a pipe or a device is refused rather than read.
 */
import { existsSync } from "node:fs";
import { closeFile, openForRead, readBytes, writeTarget, writeWhole } from "../../confinement/open-file.ts";
import { PathError } from "../../confinement/resolve.ts";
import { sha256Hex } from "../../../shared/sha256.ts";
import type { ToolHost } from "../tool.ts";

export class FileProblem extends Error {}

export const sha256 = sha256Hex;

/** The largest file read whole (by Edit and Write, and by Read to record what the model saw). */
export const WHOLE_FILE_MAX_BYTES = 20 * 1024 * 1024;

/** True when a file exists on disk at `path` (the client's fs has no existence check). */
export function fileExists(path: string): boolean {
  return existsSync(path);
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The whole text of a file inside the roots, at most WHOLE_FILE_MAX_BYTES. Throws a FileProblem
 * (or PathError) the model can act on.
 */
export async function readText(host: ToolHost, path: string, roots: readonly string[]): Promise<string> {
  let file;
  try {
    file = openForRead(path, roots);
  } catch (error) {
    if (error instanceof PathError) throw error;
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new FileProblem(`File does not exist: ${path}`);
    throw new FileProblem(`Could not read ${path}: ${describe(error)}`);
  }
  try {
    if (file.size > WHOLE_FILE_MAX_BYTES) {
      throw new FileProblem(
        `${path} is ${file.size} bytes, larger than the ${WHOLE_FILE_MAX_BYTES} bytes a file can have to be changed here.`,
      );
    }
    if (host.readTextFile) return await host.readTextFile(path);
    return readBytes(file, 0, file.size + 1).toString("utf8");
  } catch (error) {
    if (error instanceof FileProblem || error instanceof PathError) throw error;
    throw new FileProblem(`Could not read ${path}: ${describe(error)}`);
  } finally {
    closeFile(file);
  }
}

/** Writes a whole file inside the roots, creating its parent directories on disk when they are missing. */
export async function writeText(
  host: ToolHost,
  path: string,
  content: string,
  roots: readonly string[],
): Promise<void> {
  try {
    if (host.writeTextFile) {
      writeTarget(path, roots);
      await host.writeTextFile(path, content);
      return;
    }
    writeWhole(path, content, roots);
  } catch (error) {
    if (error instanceof PathError) throw error;
    throw new FileProblem(`Could not write ${path}: ${describe(error)}`);
  }
}

/**
 * Refuses to overwrite a file the model has not seen as it is now: never read, or changed since
 * (by the user, an editor or another process). Returns the message for the model, or undefined.
 */
export function staleness(path: string, current: string, seenFiles: ReadonlyMap<string, string>): string | undefined {
  const seen = seenFiles.get(path);
  if (seen === undefined) return `${path} has not been read in this session. Read it first, then make the change.`;
  if (seen !== sha256(current)) {
    return `${path} has changed since you last read it (edited by the user or another process). Read it again, then make the change against its current content.`;
  }
  return undefined;
}
