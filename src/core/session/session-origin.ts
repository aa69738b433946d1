/**
 * Where a session runs, read once when it starts: the host, and when its directory is inside a
 * git checkout, the checkout's remote (normalized, credentials stripped), the directory's path
 * inside it, the branch and the head commit. Read from the checkout's own files through the
 * confinement module: no git process, no network. Anything unreadable is simply left out.
 */
import { hostname } from "node:os";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { lstatSync } from "node:fs";
import type { SessionOrigin } from "../../journal/facts/index.ts";
import { readOwnFile } from "../confinement/own-files.ts";
import { normalizeRemote } from "./git-remote.ts";

const MAX_GIT_FILE_BYTES = 256 * 1024;

/** Never throws: a checkout it cannot read gives an origin with the host only. */
export function readOrigin(cwd: string): SessionOrigin {
  const host = hostname();
  try {
    const checkout = findCheckout(cwd);
    if (!checkout) return { host };
    const git = gitFacts(checkout.gitDir);
    if (!git) return { host };
    const inner = relative(checkout.root, cwd).split(sep).join("/");
    return { host, git: { ...git, innerPath: inner } };
  } catch {
    return { host };
  }
}

type Checkout = { root: string; gitDir: string };

/** The nearest ancestor (or `cwd` itself) holding `.git`: a directory, or a file naming the git directory (a worktree). */
function findCheckout(cwd: string): Checkout | undefined {
  for (let dir = cwd; ; dir = dirname(dir)) {
    const dotGit = join(dir, ".git");
    const stats = lstatSync(dotGit, { throwIfNoEntry: false });
    if (stats?.isDirectory()) return { root: dir, gitDir: dotGit };
    if (stats?.isFile()) {
      const pointer = read(dotGit, [dir])?.match(/^gitdir:\s*(.+?)\s*$/m)?.[1];
      if (!pointer) return undefined;
      return { root: dir, gitDir: isAbsolute(pointer) ? pointer : resolve(dir, pointer) };
    }
    if (dirname(dir) === dir) return undefined;
  }
}

function gitFacts(gitDir: string): Omit<NonNullable<SessionOrigin["git"]>, "innerPath"> | undefined {
  const head = read(join(gitDir, "HEAD"), [gitDir])?.trim();
  if (head === undefined) return undefined;
  // A linked worktree keeps its config and refs in the common directory.
  const commonPointer = read(join(gitDir, "commondir"), [gitDir])?.trim();
  const common = commonPointer ? resolve(gitDir, commonPointer) : gitDir;
  const remote = remoteOf(read(join(common, "config"), [common]) ?? "");
  const ref = head.match(/^ref:\s*(\S+)$/)?.[1];
  const commit = ref ? refCommit(gitDir, common, ref) : /^[0-9a-f]{40,64}$/.test(head) ? head : undefined;
  return {
    ...(remote ? { remote } : {}),
    ...(ref?.startsWith("refs/heads/") ? { branch: ref.slice("refs/heads/".length) } : {}),
    ...(commit ? { head: commit } : {}),
  };
}

/** The commit a ref names: its loose file, or its line in packed-refs. */
function refCommit(gitDir: string, common: string, ref: string): string | undefined {
  if (ref.split("/").includes("..")) return undefined;
  for (const dir of [gitDir, common]) {
    const loose = read(join(dir, ref), [dir])?.trim();
    if (loose && /^[0-9a-f]{40,64}$/.test(loose)) return loose;
  }
  const packed = read(join(common, "packed-refs"), [common]) ?? "";
  for (const line of packed.split("\n")) {
    const [sha, name] = line.trim().split(" ");
    if (name === ref && sha && /^[0-9a-f]{40,64}$/.test(sha)) return sha;
  }
  return undefined;
}

/** The normalized URL of the `origin` remote, else of the first remote in the config. */
function remoteOf(config: string): string | undefined {
  const urls = new Map<string, string>();
  let section: string | undefined;
  for (const raw of config.split("\n")) {
    const line = raw.trim();
    const header = line.match(/^\[remote\s+"([^"]+)"\]$/);
    if (header) {
      section = header[1];
      continue;
    }
    if (line.startsWith("[")) section = undefined;
    const url = section !== undefined ? line.match(/^url\s*=\s*(.+)$/)?.[1] : undefined;
    if (section !== undefined && url && !urls.has(section)) urls.set(section, url.trim());
  }
  const url = urls.get("origin") ?? urls.values().next().value;
  return url ? normalizeRemote(url) : undefined;
}

function read(path: string, roots: readonly string[]): string | undefined {
  const file = readOwnFile(path, roots, { maxBytes: MAX_GIT_FILE_BYTES });
  return file.state === "ok" ? file.text : undefined;
}
