/**
 * Instruction files given when the model first reads a file they apply to (agent-conventions
 * §4.1): the `CLAUDE.md` and `CLAUDE.local.md` of each folder between the working directory and
 * the file, and the rules whose `paths:` globs match it. Each is read through the confinement
 * module and given once a session; the caller records it with its text.
 */
import { dirname, join, relative, sep } from "node:path";
import type { ContextSource } from "../../journal/facts/index.ts";
import { homeDir } from "../../shared/home-dir.ts";
import { readOwnFile, type SkippedFile, userConfigRoots } from "../confinement/own-files.ts";
import { within } from "../confinement/resolve.ts";
import { sectionText } from "./section-text.ts";
import { excludingPattern } from "./excludes.ts";
import { frontMatter, listField } from "./front-matter.ts";
import { markdownFiles } from "./instruction-files.ts";
import { MAX_INSTRUCTION_CHARS, sourceOf, withoutComments } from "./read-instructions.ts";

type Env = Record<string, string | undefined>;

export type LoadedInstructions = { source: ContextSource; text: string };

const NESTED_NAMES = ["CLAUDE.md", "CLAUDE.local.md"];

/** The instruction files the files at `paths` bring, not yet in `loaded`; files not read go to `skipped`. */
export async function onDemandInstructions(p: {
  paths: readonly string[];
  cwd: string;
  roots: readonly string[];
  loaded: readonly string[];
  env: Env;
  skipped: SkippedFile[];
  /** The session's `claudeMdExcludes` patterns (excludes.ts): a file one matches is not given. */
  excludes?: readonly string[];
}): Promise<LoadedInstructions[]> {
  const given = new Set(p.loaded);
  const excluded = (path: string) => excludingPattern(path, p.excludes ?? []) !== undefined;
  const out: LoadedInstructions[] = [];
  /** `text` as read (what the source's size and hash are of), `given` the part the model is given. */
  const add = (path: string, scope: ContextSource["scope"], text: string, givenText = text) => {
    given.add(path);
    const body = withoutComments(givenText).slice(0, MAX_INSTRUCTION_CHARS);
    if (body.trim() === "") return;
    const source = sourceOf(path, scope, text);
    out.push({ source, text: sectionText({ source, text: body }) });
  };
  for (const file of p.paths) {
    if (!within(file, p.cwd) || file === p.cwd) continue;
    for (const dir of foldersBetween(p.cwd, dirname(file))) {
      for (const name of NESTED_NAMES) {
        const path = join(dir, name);
        if (given.has(path) || excluded(path)) continue;
        const read = readOwnFile(path, p.roots, { maxBytes: MAX_INSTRUCTION_CHARS * 4, truncate: true });
        if (read.state === "skipped") p.skipped.push(read.skipped);
        if (read.state === "ok") add(path, "nested", read.text);
        else given.add(path);
      }
    }
    for (const rule of await matchingRules(file, p, given))
      if (!excluded(rule.path)) add(rule.path, "rules", rule.text, rule.body);
  }
  return out;
}

/** The folders below `cwd` down to `dir`, top first (`cwd` itself is read at the session's start). */
function foldersBetween(cwd: string, dir: string): string[] {
  const rel = relative(cwd, dir);
  if (rel === "" || rel.startsWith("..")) return [];
  const parts = rel.split(sep);
  return parts.map((_, i) => join(cwd, ...parts.slice(0, i + 1)));
}

/** The rules (user's and project's) with `paths:` globs that match `file` (relative to the working directory). */
async function matchingRules(
  file: string,
  p: { cwd: string; roots: readonly string[]; env: Env; skipped: SkippedFile[] },
  given: ReadonlySet<string>,
): Promise<{ path: string; text: string; body: string }[]> {
  const rel = relative(p.cwd, file).split(sep).join("/");
  const rules = [
    ...markdownFiles(join(homeDir(p.env), ".claude", "rules"), false).map((path) => ({
      path,
      roots: userConfigRoots(p.env),
    })),
    ...markdownFiles(join(p.cwd, ".claude", "rules"), true).map((path) => ({ path, roots: [...p.roots] })),
  ];
  const found: { path: string; text: string; body: string }[] = [];
  for (const rule of rules) {
    if (given.has(rule.path)) continue;
    const read = readOwnFile(rule.path, rule.roots, { maxBytes: MAX_INSTRUCTION_CHARS * 4, truncate: true });
    if (read.state !== "ok") continue; // not read at the session's start either, and said so then
    const parsed = await frontMatter(read.text);
    const globs = parsed.ok ? listField(parsed.fields, "paths") : undefined;
    if (!parsed.ok || !globs?.length) continue;
    if (globs.some((glob) => new Bun.Glob(glob).match(rel)))
      found.push({ path: rule.path, text: read.text, body: parsed.body });
  }
  return found;
}
