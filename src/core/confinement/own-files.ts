/**
 * The files verbatim reads by itself, without a tool call or a question: instruction files,
 * ignore files, command files, settings and hook config. Each is read only when it resolves
 * inside its roots (a project's: the session's directories; a user's: the user's configuration
 * directories), is a regular file, and is not larger than its cap. Anything else is skipped, and
 * the caller shows the user which file and why.
 */
import { closeSync, constants, lstatSync, openSync, statSync } from "node:fs";
import { join } from "node:path";
import { homeDir } from "../../shared/home-dir.ts";
import { closeFile, openForRead, readBytes } from "./open-file.ts";
import { insideAny, kindOf, PathError, realRoots, resolveReal } from "./resolve.ts";

/** A file that was not read, and why (for a notice). */
export type SkippedFile = { path: string; reason: string };

export type OwnFile =
  | { state: "missing" }
  | { state: "skipped"; skipped: SkippedFile }
  | { state: "ok"; text: string; truncated: boolean };

export type OwnFileOptions = {
  /** The most bytes read. */
  maxBytes: number;
  /** Past `maxBytes`: read the first `maxBytes` (true), or skip the file (false, the default). */
  truncate?: boolean;
};

const skip = (path: string, reason: string): OwnFile => ({ state: "skipped", skipped: { path, reason } });

/** Reads one of verbatim's own files, or says why not. Never throws, never blocks on a special file. */
export function readOwnFile(path: string, roots: readonly string[], options: OwnFileOptions): OwnFile {
  try {
    if (!lstatSync(path, { throwIfNoEntry: false })) return { state: "missing" };
    const real = resolveReal(path);
    if (!insideAny(real, realRoots(roots))) return skip(path, `it leads to ${real}, outside ${roots.join(", ")}`);
    const stats = statSync(real, { throwIfNoEntry: false });
    if (!stats) return { state: "missing" }; // a link to nothing yet, inside the roots
    if (!stats.isFile()) return skip(path, `it is ${kindOf(stats)}, not a regular file`);
    const file = openForRead(real, roots);
    try {
      if (file.size > options.maxBytes && !options.truncate) {
        return skip(
          path,
          `it is ${file.size} bytes, more than the ${options.maxBytes} verbatim reads from such a file`,
        );
      }
      const bytes = readBytes(file, 0, options.maxBytes + 1);
      const truncated = bytes.length > options.maxBytes;
      return { state: "ok", text: bytes.subarray(0, options.maxBytes).toString("utf8"), truncated };
    } finally {
      closeFile(file);
    }
  } catch (error) {
    if (error instanceof PathError) return skip(path, error.message);
    return skip(path, `it could not be read (${error instanceof Error ? error.message : String(error)})`);
  }
}

/** Whether a directory verbatim lists by itself (a command folder) resolves inside the roots; the reason when not. */
export function ownDirectory(
  path: string,
  roots: readonly string[],
): { state: "missing" } | { state: "skipped"; skipped: SkippedFile } | { state: "ok"; real: string } {
  try {
    if (!lstatSync(path, { throwIfNoEntry: false })) return { state: "missing" };
    const real = resolveReal(path);
    if (!insideAny(real, realRoots(roots)))
      return { state: "skipped", skipped: { path, reason: `it leads to ${real}, outside ${roots.join(", ")}` } };
    const stats = statSync(real, { throwIfNoEntry: false });
    if (!stats) return { state: "missing" };
    if (!stats.isDirectory())
      return { state: "skipped", skipped: { path, reason: `it is ${kindOf(stats)}, not a directory` } };
    // Opened once without following a final link, so a folder swapped for a link since is not listed.
    closeSync(openSync(real, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW));
    return { state: "ok", real };
  } catch (error) {
    return { state: "skipped", skipped: { path, reason: error instanceof Error ? error.message : String(error) } };
  }
}

type Env = Record<string, string | undefined>;

/** The user's own configuration directories: `~/.claude` and `$XDG_CONFIG_HOME` (default `~/.config`). */
export function userConfigRoots(env: Env): string[] {
  const home = homeDir(env);
  return [join(home, ".claude"), env.XDG_CONFIG_HOME || join(home, ".config")];
}

/** A notice for files that were not read, or none. */
export function skippedNotice(
  skipped: readonly SkippedFile[],
): { severity: "warning"; title: string; description: string } | undefined {
  if (skipped.length === 0) return undefined;
  const n = skipped.length;
  return {
    severity: "warning",
    title: `${n} file${n === 1 ? "" : "s"} verbatim reads by itself ${n === 1 ? "was" : "were"} not read`,
    description: skipped.map((s) => `${s.path} was not read: ${s.reason}`).join("\n"),
  };
}
