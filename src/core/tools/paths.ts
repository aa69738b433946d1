/**
 * Confinement of file paths to the session's directories. A path must be absolute, and after
 * resolving `..` and symlinks it must lie inside one of the roots.
 */
import { realpathSync, statSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";

export class PathError extends Error {}

const inside = (path: string, root: string) => {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel) && rel !== ".." && !rel.startsWith(`..${sep}`));
};

/** The real path of `path`, or of its nearest existing ancestor joined with the rest. */
function realish(path: string): string {
  let current = path;
  const rest: string[] = [];
  for (;;) {
    try {
      const real = realpathSync(current);
      return rest.length ? resolve(real, ...rest.reverse()) : real;
    } catch {
      const parent = dirname(current);
      if (parent === current) return path;
      rest.push(current.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
      current = parent;
    }
  }
}

/** Whether an absolute path lies (after `..` and symlinks) inside one of the roots. */
export function isInside(path: string, roots: string[]): boolean {
  if (!isAbsolute(path) || path.includes("\0")) return true; // not a confinement question: the tool refuses it
  const real = realish(resolve(path));
  return roots.some((root) => inside(real, realish(resolve(root))));
}

/** The directory to grant for access to `path`: itself if it is a directory, else its parent. */
export function directoryOf(path: string): string {
  const real = realish(resolve(path));
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
  const real = realish(normalized);
  for (const root of roots) {
    const realRoot = realish(resolve(root));
    if (inside(real, realRoot)) return normalized;
  }
  throw new PathError(
    `${path} is outside the session's directories (${roots.join(", ")}). Only files under them can be used.`,
  );
}

export const displayPath = (path: string, cwd: string) => {
  const rel = relative(cwd, path);
  return rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : path;
};

/** `confine`, with a refusal as the call's failed outcome (for tools that fail on nothing else). */
export function confinedOr<F>(path: string, roots: string[], refuse: (message: string) => F): { path: string } | { refused: F } {
  try {
    return { path: confine(path, roots) };
  } catch (error) {
    if (error instanceof PathError) return { refused: refuse(error.message) };
    throw error;
  }
}
