/**
 * Skills with `paths` globs (agent-conventions §4.3): not listed in the system prompt, but offered
 * to the model once it reads a file one of their globs matches (relative to the working
 * directory, as a rule's `paths:` are), once a session, as Claude Code does. Which skills have
 * globs is what `context_given` recorded; the skill's file is read again, through the confinement
 * module, only when one matches, for the size and hash its source records.
 */
import { dirname, relative, sep } from "node:path";
import type { OfferedItem } from "../../journal/facts/index.ts";
import { readOwnFile, type SkippedFile, userConfigRoots } from "../confinement/own-files.ts";
import type { LoadedInstructions } from "./on-demand.ts";
import { sourceOf } from "./read-instructions.ts";
import { sectionText } from "./section-text.ts";

type Env = Record<string, string | undefined>;

/** The skills the files at `paths` bring, not yet in `loaded`. */
export function pathSkills(p: {
  paths: readonly string[];
  cwd: string;
  roots: readonly string[];
  skills: readonly OfferedItem[];
  loaded: readonly string[];
  env: Env;
  skipped: SkippedFile[];
}): LoadedInstructions[] {
  const out: LoadedInstructions[] = [];
  const given = new Set(p.loaded);
  const files = p.paths.map((path) => relative(p.cwd, path).split(sep).join("/")).filter((r) => !r.startsWith(".."));
  for (const skill of p.skills) {
    if (!skill.paths?.length || given.has(skill.path)) continue;
    if (!files.some((file) => skill.paths!.some((glob) => new Bun.Glob(glob).match(file)))) continue;
    given.add(skill.path);
    // A project skill of a parent folder is read inside that folder, as it was when the session started.
    const base = dirname(dirname(dirname(dirname(skill.path))));
    const roots = skill.scope === "user" ? userConfigRoots(p.env) : [...p.roots, base];
    const read = readOwnFile(skill.path, roots, { maxBytes: 200_000 });
    if (read.state === "skipped") p.skipped.push(read.skipped);
    if (read.state !== "ok") continue;
    const source = sourceOf(skill.path, "skill", read.text);
    out.push({ source, text: sectionText({ source, text: `- ${skill.name}: ${skill.description}` }) });
  }
  return out;
}
