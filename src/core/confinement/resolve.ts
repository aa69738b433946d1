/**
 * The one resolver behind every confinement check: where a path really leads, link by link, as
 * the kernel would follow it, including a final link whose target does not exist yet (a write
 * through it would create the target). `..` and symlinks are taken as they are met; a missing
 * tail is joined on as written. Tool inputs, grants and the files verbatim reads by itself all
 * go through here (see paths.ts, open-file.ts and own-files.ts).
 */
import { lstatSync, readlinkSync, type Stats } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

export class PathError extends Error {}

/** Linux's own limit on links followed while resolving one path. */
const MAX_LINKS = 40;

/** What `/proc/<pid>/fd/N` names when it is not a file: `pipe:[123]`, `socket:[9]`, `anon_inode:[eventfd]`. */
const KERNEL_OBJECT = /^[a-z_]+:\[[^\]]*\]$/;

/** Whether `path` is `root` or lies under it (both real, absolute paths). */
export function within(path: string, root: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * The real path `path` leads to: every link followed (a dangling final link to where its target
 * would be), the part that does not exist joined on. Throws a PathError for a link loop, or a
 * link to a pipe, socket or other kernel object (a `/proc/<pid>/fd` entry) rather than a file.
 */
export function resolveReal(path: string): string {
  const pending = resolve(path)
    .split(sep)
    .filter((part) => part !== "");
  pending.reverse(); // a stack: the next component last
  let real: string = sep;
  let links = 0;
  while (pending.length > 0) {
    const part = pending.pop()!;
    if (part === ".") continue;
    if (part === "..") {
      real = dirname(real);
      continue;
    }
    const candidate = join(real, part);
    let stats: Stats | undefined;
    try {
      stats = lstatSync(candidate, { throwIfNoEntry: false });
    } catch {
      stats = undefined; // not a directory, no permission: nothing more to follow
    }
    if (!stats) return join(candidate, ...pending.reverse());
    if (!stats.isSymbolicLink()) {
      real = candidate;
      continue;
    }
    if (++links > MAX_LINKS)
      throw new PathError(`${path} goes through more than ${MAX_LINKS} symbolic links (a loop?).`);
    let target: string;
    try {
      target = readlinkSync(candidate, "utf8");
    } catch {
      throw new PathError(`${path} goes through ${candidate}, a link that cannot be read.`);
    }
    if (KERNEL_OBJECT.test(target)) {
      throw new PathError(
        `${path} leads to ${candidate}, which is a ${target.slice(0, target.indexOf(":"))} of a running process, not a file. Only regular files and directories can be used.`,
      );
    }
    const parts = target.split(sep).filter((p) => p !== "");
    if (isAbsolute(target)) real = sep;
    for (let i = parts.length - 1; i >= 0; i--) pending.push(parts[i]!);
  }
  return real;
}

/** Resolved roots by list: a tool call checks many files against one list (built anew for each call). */
const resolvedRoots = new WeakMap<readonly string[], string[]>();

/** The real paths of the roots that are absolute (a relative root confines nothing and is dropped). */
export function realRoots(roots: readonly string[]): string[] {
  const known = resolvedRoots.get(roots);
  if (known) return known;
  const out: string[] = [];
  for (const root of roots) {
    if (!isAbsolute(root) || root.includes("\0")) continue;
    try {
      out.push(resolveReal(root));
    } catch {
      // a root that cannot be resolved holds nothing
    }
  }
  resolvedRoots.set(roots, out);
  return out;
}

/** Whether the real path lies under one of the (real) roots. */
export const insideAny = (real: string, roots: readonly string[]) => roots.some((root) => within(real, root));

/** What a non-regular, non-directory entry is, in words. */
export function kindOf(stats: Stats): string {
  if (stats.isFIFO()) return "a named pipe (FIFO)";
  if (stats.isCharacterDevice()) return "a character device";
  if (stats.isBlockDevice()) return "a block device";
  if (stats.isSocket()) return "a socket";
  if (stats.isDirectory()) return "a directory";
  if (stats.isSymbolicLink()) return "a symbolic link";
  return "not a regular file";
}
