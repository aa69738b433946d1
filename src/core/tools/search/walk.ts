/**
 * Walking a directory tree for Glob and Grep: `.gitignore` files (and `.git/info/exclude`) are
 * respected at every level, including those above the searched directory up to its session
 * root; `.git` itself is skipped, and symbolic links are listed but never followed (a link must
 * not lead a search out of the session's directories).
 */
import type { Dirent } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { readOwnFile, type SkippedFile } from "../../confinement/own-files.ts";
import { fsAsync } from "../fs-async.ts";
import { ignoredBy, parseIgnore, type IgnoreRule } from "./gitignore.ts";

/** A file found: its absolute path, its path relative to the searched directory, and whether it is a link. */
export type WalkEntry = { path: string; rel: string; symlink: boolean };

/** The most entries one walk visits; a search past it says it stopped early. */
const WALK_LIMIT = 200_000;

const toPosix = (p: string) => (sep === "/" ? p : p.split(sep).join("/"));

/** What a walk found: the files, whether it stopped early, and the ignore files it did not read. */
export type Walked = { files: WalkEntry[]; truncated: boolean; skipped: SkippedFile[] };

/** The most an ignore file may hold; a larger one is not read (and the search says so). */
const MAX_IGNORE_FILE_BYTES = 1024 * 1024;

/**
 * The rules of an ignore file, read through the confinement module: a file that leads outside
 * the roots, is not a regular file (a pipe, a device) or is too large is skipped, and recorded.
 */
function ignoreRules(file: string, base: string, roots: readonly string[], skipped: SkippedFile[]): IgnoreRule[] {
  const read = readOwnFile(file, roots, { maxBytes: MAX_IGNORE_FILE_BYTES });
  if (read.state === "skipped") skipped.push(read.skipped);
  return read.state === "ok" ? parseIgnore(read.text, base) : [];
}

/** The notes a search adds for the ignore files it skipped (their rules were not applied). */
export const ignoreFileNotes = (skipped: readonly SkippedFile[]) =>
  skipped.map((s) => `(${s.path} was not read, so its ignore rules were not applied: ${s.reason}.)`);

/** The ignore rules from `top` down to `dir`'s parent (bases relative to `top`). */
function inheritedRules(top: string, dir: string, roots: readonly string[], skipped: SkippedFile[]): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  rules.push(...ignoreRules(join(top, ".git", "info", "exclude"), "", roots, skipped));
  const chain: string[] = [];
  if (dir !== top) {
    for (let d = dirname(dir); ; d = dirname(d)) {
      chain.unshift(d);
      if (d === top || dirname(d) === d) break;
    }
  }
  for (const d of chain) {
    rules.push(...ignoreRules(join(d, ".gitignore"), toPosix(relative(top, d)), roots, skipped));
  }
  return rules;
}

/**
 * Every file under `dir` (depth first, names sorted) that no ignore rule excludes. `top` is the
 * session root that holds `dir`; ignore files are read only inside `roots`. Stops after
 * WALK_LIMIT entries (`truncated` is then true).
 */
export async function walkFiles(
  top: string,
  dir: string,
  roots: readonly string[],
  signal?: AbortSignal,
): Promise<Walked> {
  const files: WalkEntry[] = [];
  const skipped: SkippedFile[] = [];
  let visited = 0;
  let truncated = false;
  const start = toPosix(relative(top, dir));
  const { readdir } = await fsAsync();

  async function visit(abs: string, fromTop: string, rules: IgnoreRule[]): Promise<void> {
    if (truncated || signal?.aborted) return;
    let entries: Dirent[];
    try {
      entries = await readdir(abs, { withFileTypes: true });
    } catch {
      return;
    }
    const own = ignoreRules(join(abs, ".gitignore"), fromTop, roots, skipped);
    const here = own.length ? [...rules, ...own] : rules;
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (++visited > WALK_LIMIT) {
        truncated = true;
        return;
      }
      if (entry.name === ".git") continue;
      const childTop = fromTop ? `${fromTop}/${entry.name}` : entry.name;
      const childAbs = join(abs, entry.name);
      const isDir = entry.isDirectory();
      if (ignoredBy(here, childTop, isDir)) continue;
      if (isDir) await visit(childAbs, childTop, here);
      else if (entry.isFile() || entry.isSymbolicLink()) {
        files.push({ path: childAbs, rel: toPosix(relative(dir, childAbs)), symlink: entry.isSymbolicLink() });
      }
    }
  }

  await visit(dir, start, inheritedRules(top, dir, roots, skipped));
  return { files, truncated, skipped };
}

/** The session root holding `path` (the longest root that contains it). */
export function rootOf(path: string, roots: string[]): string {
  let best = path;
  let bestLength = -1;
  for (const root of roots) {
    const rel = relative(root, path);
    if ((rel === "" || (!rel.startsWith("..") && !rel.startsWith("/"))) && root.length > bestLength) {
      best = root;
      bestLength = root.length;
    }
  }
  return best;
}

/** Modification times, for sorting results newest first; missing files sort last. */
export async function mtimes(paths: string[]): Promise<Map<string, number>> {
  const times = new Map<string, number>();
  const { stat } = await fsAsync();
  await Promise.all(
    paths.map(async (p) => {
      try {
        times.set(p, (await stat(p)).mtimeMs);
      } catch {
        times.set(p, 0);
      }
    }),
  );
  return times;
}
