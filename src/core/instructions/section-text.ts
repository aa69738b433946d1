/** How an instruction file's text is given to the model: under a line saying where it comes from. */
import type { ContextSource } from "../../journal/facts/index.ts";

export type Section = { source: ContextSource; text: string };

/** How the model is told where a file's instructions come from. */
const SCOPE_LABELS: Record<ContextSource["scope"], string> = {
  managed: "managed instructions, set by the organisation",
  user: "the user's private global instructions for all projects",
  project: "project instructions, checked into the codebase",
  local: "the user's private project instructions, not checked in",
  rules: "instruction rules",
  agents: "AGENTS.md instructions; where they conflict, the file closest to the working directory wins",
  import: "imported by the file before it",
  nested: "instructions for the files in this directory",
  skill: "a skill for the files just read, now yours to load with the Skill tool",
};

/** A file's text as the model is given it, under a line saying where it comes from. */
export function sectionText(section: Section): string {
  return `Contents of ${section.source.path} (${SCOPE_LABELS[section.source.scope]}):\n\n${section.text.trimEnd()}`;
}
