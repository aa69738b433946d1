/**
 * Reading the instruction files: each through the confinement module (own-files.ts), block HTML
 * comments taken out, cut at a size cap, and its `@path` imports read after it (relative to the
 * importing file or `~/`; at most 4 hops; a cycle is refused). A file already given (directly or
 * through an import) is given once. A rule with `paths:` is kept aside, to be given when the model
 * reads a file it matches.
 */
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { ContextSource } from "../../journal/facts/index.ts";
import { homeDir } from "../../shared/home-dir.ts";
import { sha256Hex } from "../../shared/sha256.ts";
import { readOwnFile, type SkippedFile, userConfigRoots } from "../confinement/own-files.ts";
import { resolveReal } from "../confinement/resolve.ts";
import { frontMatter, listField } from "./front-matter.ts";
import type { Candidate } from "./instruction-files.ts";
import { type Excluded, excludingPattern } from "./excludes.ts";
import type { Section } from "./section-text.ts";

type Env = Record<string, string | undefined>;

/** The most characters of one instruction file given to the model (a longer one is cut, with a notice). */
export const MAX_INSTRUCTION_CHARS = 40_000;
/** How many `@path` hops an import chain may take (Claude Code's limit). */
export const MAX_IMPORT_HOPS = 4;

/** A rule given only when the model reads a file matching one of its `paths` globs. */
export type PathRule = { path: string; roots: string[]; globs: string[] };

export type ReadInstructions = {
  sections: Section[];
  pathRules: PathRule[];
  /** Files not read, and why (links out of their roots, special files, cycles, bad front matter, ...). */
  skipped: SkippedFile[];
  /** Files given only in part: longer than MAX_INSTRUCTION_CHARS. */
  cut: string[];
  /** Files a `claudeMdExcludes` pattern kept out, with the pattern. */
  excluded: Excluded[];
};

/** A source's facts for a file's text as read from disk (its size and hash are the file's, before any cut). */
export function sourceOf(path: string, scope: ContextSource["scope"], text: string): ContextSource {
  return { path, scope, bytes: Buffer.byteLength(text), sha256: sha256Hex(text) };
}

/**
 * Reads every candidate in order, with its imports. A file (or import) one of `excludes` matches
 * is not read, but the managed file (which Claude Code does not let a user exclude).
 */
export async function readInstructions(
  candidates: readonly Candidate[],
  env: Env,
  excludes: readonly string[] = [],
): Promise<ReadInstructions> {
  const out: ReadInstructions = { sections: [], pathRules: [], skipped: [], cut: [], excluded: [] };
  const given = new Set<string>();
  for (const candidate of candidates) await readOne(candidate, [], out, given, { env, excludes });
  return out;
}

type Reading = { env: Env; excludes: readonly string[] };

async function readOne(
  candidate: Candidate,
  chain: readonly string[],
  out: ReadInstructions,
  given: Set<string>,
  reading: Reading,
): Promise<void> {
  const { env } = reading;
  const pattern = candidate.scope === "managed" ? undefined : excludingPattern(candidate.path, reading.excludes);
  if (pattern !== undefined) {
    if (!out.excluded.some((e) => e.path === candidate.path) && existsSync(candidate.path))
      out.excluded.push({ path: candidate.path, pattern });
    return;
  }
  const real = safeReal(candidate.path);
  if (chain.includes(real)) {
    out.skipped.push({ path: candidate.path, reason: `it imports itself through ${chain.join(" → ")} (a cycle)` });
    return;
  }
  if (given.has(real)) return;
  const file = readOwnFile(candidate.path, candidate.roots, { maxBytes: MAX_INSTRUCTION_CHARS * 4, truncate: true });
  if (file.state === "skipped") out.skipped.push(file.skipped);
  if (file.state !== "ok") return;
  given.add(real);
  const source = sourceOf(candidate.path, candidate.scope, file.text);
  let text = file.text;
  if (candidate.rule) {
    const parsed = await frontMatter(text);
    if (!parsed.ok) {
      out.skipped.push({ path: candidate.path, reason: parsed.error });
      return;
    }
    const globs = listField(parsed.fields, "paths");
    if (globs?.length) {
      out.pathRules.push({ path: candidate.path, roots: candidate.roots, globs });
      return;
    }
    text = parsed.body;
  }
  text = withoutComments(text);
  if (file.truncated || text.length > MAX_INSTRUCTION_CHARS) {
    out.cut.push(candidate.path);
    text = text.slice(0, MAX_INSTRUCTION_CHARS);
  }
  if (text.trim() === "") return;
  out.sections.push({ source, text });
  const imports = importsOf(text, candidate.path, env);
  if (imports.length === 0) return;
  const next = [...chain, real];
  if (next.length > MAX_IMPORT_HOPS) {
    for (const path of imports)
      out.skipped.push({ path, reason: `it is more than ${MAX_IMPORT_HOPS} imports away from ${chain[0] ?? real}` });
    return;
  }
  const roots = [...new Set([...candidate.roots, ...userConfigRoots(env)])];
  for (const path of imports) await readOne({ path, scope: "import", roots }, next, out, given, reading);
}

function safeReal(path: string): string {
  try {
    return resolveReal(path);
  } catch {
    return resolve(path);
  }
}

/** Block HTML comments are for the file's readers, not the model (as Claude Code does). */
export function withoutComments(text: string): string {
  return text.replace(/<!--[\s\S]*?-->/g, "");
}

/**
 * The files a text imports: each `@path` at the start of a line or after a space, outside code
 * blocks and code spans, relative to the importing file (or `~/`-rooted).
 */
export function importsOf(text: string, from: string, env: Env): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
  const paths: string[] = [];
  for (const match of prose.matchAll(/(?:^|\s)@((?:~\/|\.{1,2}\/|\/)?[A-Za-z0-9_.\-/]+)/gm)) {
    const raw = match[1]!.replace(/[.,;:]+$/, "");
    if (raw === "" || raw.includes("@")) continue;
    const path = raw.startsWith("~/") ? join(homeDir(env), raw.slice(2)) : resolve(dirname(from), raw);
    if (!paths.includes(path)) paths.push(path);
  }
  return paths;
}
