/**
 * Where the instruction files are, in the order the model is given them (agent-conventions
 * §4.1-4.2): Claude Code's managed file, the user's `~/.claude/CLAUDE.md` and rules, the user's
 * AGENTS.md (Codex's home), then from the filesystem root down to the working directory each
 * directory's `CLAUDE.md`, `.claude/CLAUDE.md`, `CLAUDE.local.md` and (from the git root down)
 * `AGENTS.md`; the project's rules last. Closest to the working directory is read last, so it wins
 * a conflict. Listing only: nothing here reads a file's text.
 */
import { existsSync, lstatSync, readdirSync } from "node:fs";
import { dirname, join, parse as parsePath } from "node:path";
import type { ContextSource } from "../../journal/facts/index.ts";
import { homeDir } from "../../shared/home-dir.ts";
import { userConfigRoots } from "../confinement/own-files.ts";
import { insideAny, realRoots, resolveReal } from "../confinement/resolve.ts";

type Env = Record<string, string | undefined>;

/** One file to read, with the roots it must resolve inside. */
export type Candidate = { path: string; scope: ContextSource["scope"]; roots: string[]; rule?: true };

/** Claude Code's managed instructions, by platform (agent-conventions §1.1). */
export function managedDirectory(platform: NodeJS.Platform = process.platform): string | undefined {
  if (platform === "darwin") return "/Library/Application Support/ClaudeCode";
  if (platform === "linux") return "/etc/claude-code";
  if (platform === "win32") return "C:\\Program Files\\ClaudeCode";
  return undefined;
}

/** The working directory and every parent, from the filesystem root down. */
export function ancestors(cwd: string): string[] {
  const chain: string[] = [];
  let dir = cwd;
  while (true) {
    chain.push(dir);
    const up = dirname(dir);
    if (up === dir || dir === parsePath(dir).root) break;
    dir = up;
  }
  return chain.reverse();
}

/** The nearest directory at or above `cwd` holding `.git`, or undefined. */
export function gitRoot(chain: readonly string[]): string | undefined {
  for (let i = chain.length - 1; i >= 0; i--) if (existsSync(join(chain[i]!, ".git"))) return chain[i];
  return undefined;
}

/** The first of `names` that exists in `dir` (Codex's override file before AGENTS.md). */
function firstPresent(dir: string, names: readonly string[]): string | undefined {
  for (const name of names) {
    const path = join(dir, name);
    try {
      if (lstatSync(path, { throwIfNoEntry: false })) return path;
    } catch {
      // `dir` is not a directory (a session asked for in a file's path): nothing there.
    }
  }
  return undefined;
}

const AGENTS_NAMES = ["AGENTS.override.md", "AGENTS.md"];

/**
 * Every instruction file a session starting in `cwd` reads at its start, in order. A directory
 * inside the session's roots reads with those roots; a parent above them is the one exception
 * (docs/security.md): its files are read only when they resolve inside that parent directory itself.
 */
export function instructionCandidates(cwd: string, sessionRoots: readonly string[], env: Env): Candidate[] {
  const home = homeDir(env);
  const userRoots = userConfigRoots(env);
  const list: Candidate[] = [];
  const managed = managedDirectory();
  if (managed) list.push({ path: join(managed, "CLAUDE.md"), scope: "managed", roots: [managed] });
  list.push({ path: join(home, ".claude", "CLAUDE.md"), scope: "user", roots: userRoots });
  for (const path of markdownFiles(join(home, ".claude", "rules"), false))
    list.push({ path, scope: "rules", roots: userRoots, rule: true });
  const codexHome = env.CODEX_HOME || join(home, ".codex");
  const userAgents = firstPresent(codexHome, AGENTS_NAMES);
  if (userAgents) list.push({ path: userAgents, scope: "agents", roots: [codexHome] });
  const chain = ancestors(cwd);
  const git = gitRoot(chain);
  const inside = realRoots(sessionRoots);
  for (const dir of chain) {
    const roots = insideAny(resolveReal(dir), inside) ? [...sessionRoots] : [dir];
    list.push({ path: join(dir, "CLAUDE.md"), scope: "project", roots });
    list.push({ path: join(dir, ".claude", "CLAUDE.md"), scope: "project", roots });
    list.push({ path: join(dir, "CLAUDE.local.md"), scope: "local", roots });
    const agentsHere = git === undefined ? dir === cwd : dir.length >= git.length;
    const agents = agentsHere ? firstPresent(dir, AGENTS_NAMES) : undefined;
    if (agents) list.push({ path: agents, scope: "agents", roots });
  }
  for (const path of markdownFiles(join(cwd, ".claude", "rules"), true))
    list.push({ path, scope: "rules", roots: [...sessionRoots], rule: true });
  return list;
}

/**
 * The folders a project's `.claude/<kind>` is looked for in, closest first, each with the roots a
 * file there must resolve inside: the working directory and each parent up to the git root (only
 * the working directory outside a git repository). A parent inside the session's roots reads with
 * those roots; one above them only inside itself (the exception docs/security.md names).
 */
export function projectFolders(cwd: string, sessionRoots: readonly string[]): { dir: string; roots: string[] }[] {
  const chain = ancestors(cwd);
  const git = gitRoot(chain);
  const inside = realRoots(sessionRoots);
  return chain
    .filter((dir) => (git === undefined ? dir === cwd : dir.length >= git.length))
    .reverse()
    .map((dir) => ({ dir, roots: insideAny(resolveReal(dir), inside) ? [...sessionRoots] : [dir] }));
}

/**
 * The `.md` files under `dir`, sorted (recursively when asked). Links to folders are not walked:
 * each file found is still read through the confinement module.
 */
export function markdownFiles(dir: string, recursive: boolean): string[] {
  let entries: import("node:fs").Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const files: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && recursive) files.push(...markdownFiles(path, true));
    else if (!entry.isDirectory() && entry.name.endsWith(".md")) files.push(path);
  }
  return files;
}
