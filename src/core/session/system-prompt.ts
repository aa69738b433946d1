/**
 * The system prompt, built once when a session starts and journaled, so a reopened session sends
 * the provider the same request even if the project's instruction files changed since.
 */
import { join } from "node:path";
import { readOwnFile, type SkippedFile } from "../confinement/own-files.ts";

const INSTRUCTION_FILES = ["AGENTS.md", "CLAUDE.md"];
const MAX_INSTRUCTIONS = 40_000;

/**
 * The prompt, and the instruction files that were not read: one that leads outside the session's
 * directories, is not a regular file, or cannot be read is left out (the caller shows why).
 */
export function buildSystemPrompt(
  cwd: string,
  additionalDirectories: string[],
  today: string,
): { text: string; skipped: SkippedFile[] } {
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
  const skipped: SkippedFile[] = [];
  const roots = [cwd, ...additionalDirectories];
  for (const name of INSTRUCTION_FILES) {
    // Bytes enough for MAX_INSTRUCTIONS characters of any UTF-8 text.
    const file = readOwnFile(join(cwd, name), roots, { maxBytes: MAX_INSTRUCTIONS * 4, truncate: true });
    if (file.state === "skipped") skipped.push(file.skipped);
    if (file.state === "ok") parts.push("", `Project instructions from ${name}:`, file.text.slice(0, MAX_INSTRUCTIONS));
  }
  return { text: parts.join("\n"), skipped };
}
