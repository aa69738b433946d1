/**
 * The system prompt, built once when a session starts and journaled, so a reopened session sends
 * the provider the same request even if the project's instruction files changed since. The
 * instruction files it holds are read as Claude Code and Codex users keep them (src/core/instructions/).
 */
import type { ContextSource } from "../../journal/facts/index.ts";
import { sectionText } from "../instructions/section-text.ts";
import type { SkippedFile } from "../confinement/own-files.ts";
import { instructionCandidates } from "../instructions/instruction-files.ts";
import { type PathRule, readInstructions } from "../instructions/read-instructions.ts";
import { claudeMdExcludes, type Excluded } from "../instructions/excludes.ts";

type Env = Record<string, string | undefined>;

export type BuiltPrompt = {
  text: string;
  sources: ContextSource[];
  pathRules: PathRule[];
  /** Instruction files not read (the caller shows why), and those given only in part. */
  skipped: SkippedFile[];
  cut: string[];
  /** The `claudeMdExcludes` patterns in force, and the instruction files they kept out. */
  excludes: string[];
  excluded: Excluded[];
};

/** The prompt, the instruction files it holds, and those it left out. */
export async function buildSystemPrompt(
  cwd: string,
  additionalDirectories: string[],
  today: string,
  env: Env = process.env,
  offered: {
    skills: readonly { name: string; description: string }[];
    agents: readonly { name: string; description: string }[];
  } = {
    skills: [],
    agents: [],
  },
): Promise<BuiltPrompt> {
  const parts = [
    "You are verbatim, a coding agent working in the user's project through their editor.",
    "Use the tools to read, search, edit and run things; prefer reading before changing.",
    "Keep answers short and concrete. Paths given to tools must be absolute.",
    "",
    `Working directory: ${cwd}`,
    ...(additionalDirectories.length ? [`Additional directories: ${additionalDirectories.join(", ")}`] : []),
    `Platform: ${process.platform}`,
    `Date: ${today}`,
  ];
  const roots = [cwd, ...additionalDirectories];
  const excludes = claudeMdExcludes(env, cwd);
  const read = await readInstructions(instructionCandidates(cwd, roots, env), env, excludes);
  if (read.sections.length > 0) {
    parts.push("", "The user's instructions follow. They override default behaviour; follow them exactly as written.");
    for (const section of read.sections) parts.push("", sectionText(section));
  }
  if (offered.skills.length > 0)
    parts.push(
      "",
      "Skills you can load with the Skill tool (load one when the task matches what it is for):",
      ...offered.skills.map((s) => `- ${s.name}: ${s.description}`),
    );
  if (offered.agents.length > 0)
    parts.push(
      "",
      "Custom subagent types the user keeps, for the Task tool's subagent_type:",
      ...offered.agents.map((a) => `- ${a.name}: ${a.description}`),
    );
  return {
    text: parts.join("\n"),
    sources: read.sections.map((s) => s.source),
    pathRules: read.pathRules,
    skipped: read.skipped,
    cut: read.cut,
    excludes,
    excluded: read.excluded,
  };
}
