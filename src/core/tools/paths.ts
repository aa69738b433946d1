/**
 * Confinement of tool paths to the session's directories. A path must be absolute; where it
 * leads, every link followed (a dangling one to where its target would be created), must lie
 * inside one of the roots; and what is there, if anything, must be a regular file or a
 * directory. The resolver is the confinement module's (src/core/confinement/resolve.ts); the
 * file is then opened and checked again by what was opened (open-file.ts).
 */
import { statSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";
import { insideAny, kindOf, PathError, realRoots, resolveReal } from "../confinement/resolve.ts";

export { PathError } from "../confinement/resolve.ts";

/**
 * Whether an absolute path leads inside one of the roots. A path that is not a confinement
 * question (relative, NUL byte, a link loop or a link to a pipe) counts as inside: the tool
 * itself refuses it, with its reason, so nobody is asked about it.
 */
export function isInside(path: string, roots: string[]): boolean {
  if (!isAbsolute(path) || path.includes("\0")) return true;
  try {
    return insideAny(resolveReal(path), realRoots(roots));
  } catch (error) {
    if (error instanceof PathError) return true;
    throw error;
  }
}

/**
 * The directory to grant for access to `path`: where it leads, if that is a directory, else the
 * directory holding it. Always absolute: a grant names a real directory, never one relative to
 * the process.
 */
export function directoryOf(path: string): string {
  let real: string;
  try {
    real = resolveReal(path);
  } catch {
    real = resolve(path);
  }
  try {
    if (statSync(real).isDirectory()) return real;
  } catch {
    // does not exist (yet): its parent
  }
  return dirname(real);
}

/** Returns the normalized path, or throws a PathError the model can act on. */
export function confine(path: string, roots: string[]): string {
  if (path.includes("\0")) throw new PathError("The path contains a NUL byte.");
  if (!isAbsolute(path)) throw new PathError(`The path must be absolute, got "${path}". Use a path under ${roots[0]}.`);
  const normalized = resolve(path);
  const real = resolveReal(normalized);
  if (!insideAny(real, realRoots(roots))) {
    const via = real === normalized ? "" : ` (it leads to ${real})`;
    throw new PathError(
      `${path} is outside the session's directories (${roots.join(", ")})${via}. Only files under them can be used.`,
    );
  }
  const stats = statOrNot(real);
  if (stats && !stats.isFile() && !stats.isDirectory()) {
    throw new PathError(
      `${path} is ${kindOf(stats)}, not a regular file or directory. Only regular files and directories can be used.`,
    );
  }
  return normalized;
}

function statOrNot(path: string) {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined; // not a directory on the way, or no permission: the tool's own open says so
  }
}

/** `confine`, with a refusal as the call's failed outcome (for tools that fail on nothing else). */
export function confinedOr<F>(
  path: string,
  roots: string[],
  refuse: (message: string) => F,
): { path: string } | { refused: F } {
  try {
    return { path: confine(path, roots) };
  } catch (error) {
    if (error instanceof PathError) return { refused: refuse(error.message) };
    throw error;
  }
}
