/**
 * Reading and writing text files for tools: through the client's editor (`fs/*`) when it offers
 * that, so unsaved buffers are seen, and the local disk otherwise. Paths are already confined.
 */
import { existsSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { sha256Hex } from "../../../sha256.ts";
import { fsAsync } from "../fs-async.ts";
import type { ToolHost } from "../tool.ts";

export class FileProblem extends Error {}

export const sha256 = sha256Hex;

/** True when a file exists on disk at `path` (the client's fs has no existence check). */
export function fileExists(path: string): boolean {
  return existsSync(path);
}

/** The whole text of a file. Throws a FileProblem the model can act on. */
export async function readText(host: ToolHost, path: string): Promise<string> {
  if (!existsSync(path)) throw new FileProblem(`File does not exist: ${path}`);
  if (statSync(path).isDirectory()) throw new FileProblem(`${path} is a directory, not a file. Use a file path (Glob lists files).`);
  try {
    if (host.readTextFile) return await host.readTextFile(path);
    const { readFile } = await fsAsync();
    return await readFile(path, "utf8");
  } catch (error) {
    throw new FileProblem(`Could not read ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Writes a whole file, creating its parent directories on disk when they are missing. */
export async function writeText(host: ToolHost, path: string, content: string): Promise<void> {
  try {
    const { mkdir, writeFile } = await fsAsync();
    await mkdir(dirname(path), { recursive: true });
    if (host.writeTextFile) await host.writeTextFile(path, content);
    else await writeFile(path, content, "utf8");
  } catch (error) {
    throw new FileProblem(`Could not write ${path}: ${error instanceof Error ? error.message : String(error)}`);
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
