/**
 * Slash commands: `/compact`, carried out by the engine, and the commands the user keeps in the
 * project as markdown prompt files (`.verbatim/commands/<name>.md`, then `.claude/commands/<name>.md`
 * for names not taken). A file's text, after an optional `---` front matter with `description:`
 * and `argument-hint:`, is the prompt; `$ARGUMENTS` in it is replaced by what follows the command.
 */
import type { Command } from "../../journal/facts/index.ts";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

export const COMMAND_FOLDERS = [".verbatim/commands", ".claude/commands"];

export type ProjectCommand = { name: string; description: string; hint?: string; body: string };

export const compactCommand: Command = {
  name: "compact",
  description: "Summarise older turns for the model to free its context (what is shown here stays)",
  input: { hint: "what the summary should keep (optional)" },
};

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.:-]*$/;
const MAX_FILE = 200_000;

/** The project's own commands, by name; unreadable or oddly named files are skipped. */
export function projectCommands(cwd: string): ProjectCommand[] {
  const found = new Map<string, ProjectCommand>();
  for (const folder of COMMAND_FOLDERS) {
    const dir = join(cwd, folder);
    if (!existsSync(dir)) continue;
    let names: string[];
    try {
      names = readdirSync(dir).filter((f) => f.endsWith(".md")).sort();
    } catch {
      continue;
    }
    for (const file of names) {
      const name = file.slice(0, -3);
      if (!NAME.test(name) || name === compactCommand.name || found.has(name)) continue;
      const command = readCommand(join(dir, file), name);
      if (command) found.set(name, command);
    }
  }
  return [...found.values()];
}

/** Every command a session offers: `/compact` first, then the project's. */
export function availableCommands(cwd: string): Command[] {
  return [
    compactCommand,
    ...projectCommands(cwd).map((c) => ({ name: c.name, description: c.description, ...(c.hint ? { input: { hint: c.hint } } : {}) })),
  ];
}

function readCommand(path: string, name: string): ProjectCommand | undefined {
  try {
    if (!statSync(path).isFile() || statSync(path).size > MAX_FILE) return undefined;
    const { fields, body } = frontMatter(readFileSync(path, "utf8"));
    const firstLine = body.split("\n").map((l) => l.trim()).find((l) => l.length > 0) ?? name;
    const description = fields.description ?? (firstLine.length > 100 ? `${firstLine.slice(0, 99)}…` : firstLine);
    return { name, description, ...(fields["argument-hint"] ? { hint: fields["argument-hint"] } : {}), body };
  } catch {
    return undefined;
  }
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
