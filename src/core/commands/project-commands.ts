/**
 * Slash commands: `/compact`, carried out by the engine, and the commands the user keeps in the
 * project as markdown prompt files (`.verbatim/commands/<name>.md`, then `.claude/commands/<name>.md`
 * for names not taken). A file's text, after an optional `---` front matter with `description:`
 * and `argument-hint:`, is the prompt; `$ARGUMENTS` in it is replaced by what follows the command.
 */
import type { Command } from "../../journal/facts/index.ts";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { ownDirectory, readOwnFile, type SkippedFile } from "../confinement/own-files.ts";

const COMMAND_FOLDERS = [".verbatim/commands", ".claude/commands"];

export type ProjectCommand = { name: string; description: string; hint?: string; body: string };

export const compactCommand: Command = {
  name: "compact",
  description: "Summarise older turns for the model to free its context (what is shown here stays)",
  input: { hint: "what the summary should keep (optional)" },
};

export const contextCommand: Command = {
  name: "context",
  description: "Show what fills the model's context window, in tokens",
};

/** The commands the engine carries out itself: a file of the same name never replaces them. */
const BUILT_IN = new Set([compactCommand.name, contextCommand.name]);

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.:-]*$/;
const MAX_FILE = 200_000;

/**
 * The project's own commands, by name. Oddly named files are passed over; a folder or file that
 * leads outside `roots` (the session's directories), is not a regular file or is too large is
 * not read, and is added to `skipped`.
 */
export function projectCommands(
  cwd: string,
  roots: readonly string[] = [cwd],
  skipped: SkippedFile[] = [],
): ProjectCommand[] {
  const found = new Map<string, ProjectCommand>();
  for (const folder of COMMAND_FOLDERS) {
    const dir = ownDirectory(join(cwd, folder), roots);
    if (dir.state === "skipped") skipped.push(dir.skipped);
    if (dir.state !== "ok") continue;
    let names: string[];
    try {
      names = readdirSync(dir.real)
        .filter((f) => f.endsWith(".md"))
        .sort();
    } catch {
      continue;
    }
    for (const file of names) {
      const name = file.slice(0, -3);
      if (!NAME.test(name) || BUILT_IN.has(name) || found.has(name)) continue;
      const read = readOwnFile(join(cwd, folder, file), roots, { maxBytes: MAX_FILE });
      if (read.state === "skipped") skipped.push(read.skipped);
      if (read.state === "ok") found.set(name, commandOf(read.text, name));
    }
  }
  return [...found.values()];
}

/** Every command a session offers: `/compact` and `/context` first, then the project's (see `projectCommands`). */
export function availableCommands(
  cwd: string,
  roots: readonly string[] = [cwd],
  skipped: SkippedFile[] = [],
): Command[] {
  return [
    compactCommand,
    contextCommand,
    ...projectCommands(cwd, roots, skipped).map((c) => ({
      name: c.name,
      description: c.description,
      ...(c.hint ? { input: { hint: c.hint } } : {}),
    })),
  ];
}

function commandOf(text: string, name: string): ProjectCommand {
  const { fields, body } = frontMatter(text);
  const firstLine =
    body
      .split("\n")
      .map((l) => l.trim())
      .find((l) => l.length > 0) ?? name;
  const description = fields.description ?? (firstLine.length > 100 ? `${firstLine.slice(0, 99)}…` : firstLine);
  return { name, description, ...(fields["argument-hint"] ? { hint: fields["argument-hint"] } : {}), body };
}

/** A `---` block of `key: value` lines at the top of a file, and the text after it. */
function frontMatter(text: string): { fields: Record<string, string>; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  if (!match) return { fields: {}, body: text };
  const fields: Record<string, string> = {};
  for (const line of (match[1] ?? "").split(/\r?\n/)) {
    const kv = /^([A-Za-z][\w-]*)\s*:\s*(.*)$/.exec(line);
    if (kv?.[1]) fields[kv[1]] = (kv[2] ?? "").trim().replace(/^(["'])(.*)\1$/, "$2");
  }
  return { fields, body: text.slice(match[0].length) };
}

/** A command's prompt with its arguments: `$ARGUMENTS` replaced, or the arguments appended. */
export function expandCommand(command: ProjectCommand, args: string): string {
  if (command.body.includes("$ARGUMENTS")) return command.body.split("$ARGUMENTS").join(args);
  return args ? `${command.body.trimEnd()}\n\nARGUMENTS: ${args}` : command.body;
}
