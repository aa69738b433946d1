/**
 * The system prompt, built once when a session starts and journaled, so a reopened session sends
 * the provider the same request even if the project's instruction files changed since.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

const INSTRUCTION_FILES = ["AGENTS.md", "CLAUDE.md"];
const MAX_INSTRUCTIONS = 40_000;

export function buildSystemPrompt(cwd: string, additionalDirectories: string[], today: string): string {
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
  for (const name of INSTRUCTION_FILES) {
    const path = join(cwd, name);
    if (!existsSync(path)) continue;
    try {
      const text = readFileSync(path, "utf8").slice(0, MAX_INSTRUCTIONS);
      parts.push("", `Project instructions from ${name}:`, text);
    } catch {
      // An unreadable instruction file is skipped; the session still starts.
    }
  }
  return parts.join("\n");
}
