/**
 * Walking a directory tree for Glob and Grep: `.gitignore` files (and `.git/info/exclude`) are
 * respected at every level, including those above the searched directory up to its session
 * root; `.git` itself is skipped, and symbolic links are listed but never followed (a link must
 * not lead a search out of the session's directories).
 */
import { existsSync, readFileSync, type Dirent } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fsAsync } from "../fs-async.ts";
import { ignoredBy, parseIgnore, type IgnoreRule } from "./gitignore.ts";

/** A file found: its absolute path, its path relative to the searched directory, and whether it is a link. */
export type WalkEntry = { path: string; rel: string; symlink: boolean };

/** The most entries one walk visits; a search past it says it stopped early. */
export const WALK_LIMIT = 200_000;

const toPosix = (p: string) => (sep === "/" ? p : p.split(sep).join("/"));

const safeRead = (file: string) => {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
};

/** The ignore rules from `top` down to `dir`'s parent (bases relative to `top`). */
function inheritedRules(top: string, dir: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  const exclude = join(top, ".git", "info", "exclude");
  if (existsSync(exclude)) rules.push(...parseIgnore(safeRead(exclude), ""));
  const chain: string[] = [];
  if (dir !== top) {
    for (let d = dirname(dir); ; d = dirname(d)) {
      chain.unshift(d);
      if (d === top || dirname(d) === d) break;
    }
  }
  for (const d of chain) {
    const file = join(d, ".gitignore");
    if (existsSync(file)) rules.push(...parseIgnore(safeRead(file), toPosix(relative(top, d))));
  }
  return rules;
}

/**
 * Every file under `dir` (depth first, names sorted) that no ignore rule excludes. `top` is the
 * session root that holds `dir`. Stops after WALK_LIMIT entries (`truncated` is then true).
 */
export async function walkFiles(top: string, dir: string, signal?: AbortSignal): Promise<{ files: WalkEntry[]; truncated: boolean }> {
  const files: WalkEntry[] = [];
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
    const own = join(abs, ".gitignore");
    const here = existsSync(own) ? [...rules, ...parseIgnore(safeRead(own), fromTop)] : rules;
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

  await visit(dir, start, inheritedRules(top, dir));
  return { files, truncated };
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
  await Promise.all(paths.map(async (p) => {
    try {
      times.set(p, (await stat(p)).mtimeMs);
    } catch {
      times.set(p, 0);
    }
  }));
  return times;
}
