/**
 * Slash commands: `/compact` and `/context`, carried out by the engine, and the commands and skills
 * the user keeps (command-files.ts). A command's text, after its front matter, is the prompt, with
 * its arguments put in (arguments.ts); a skill's also has its folder and the project's named.
 */
import type { Command } from "../../journal/facts/index.ts";
import type { SkippedFile } from "../confinement/own-files.ts";
import { substituteArguments } from "./arguments.ts";
import { type CommandFiles, commandFiles, type UserCommand } from "./command-files.ts";

export type { UserCommand } from "./command-files.ts";

export const compactCommand: Command = {
  name: "compact",
  description: "Summarise older turns for the model to free its context (what is shown here stays)",
  input: { hint: "what the summary should keep (optional)" },
};

export const contextCommand: Command = {
  name: "context",
  description: "Show what fills the model's context window, in tokens",
};

type Env = Record<string, string | undefined>;

/** Where a session's commands are read from, and whether its workspace is trusted. */
export type CommandPlace = { cwd: string; roots: readonly string[]; env: Env; trusted: boolean };

/** The commands and skills a user may type, in precedence order (see command-files.ts). */
export async function userCommands(place: CommandPlace, found?: (files: CommandFiles) => void): Promise<UserCommand[]> {
  const files = await commandFiles(place);
  found?.(files);
  return files.commands.filter((c) => c.userInvocable);
}

/** Every command a session offers: `/compact` and `/context` first, then the user's. */
export async function availableCommands(
  place: CommandPlace,
  found?: (files: CommandFiles) => void,
): Promise<Command[]> {
  return [
    compactCommand,
    contextCommand,
    ...(await userCommands(place, found)).map((c) => ({
      name: c.name,
      description: c.description,
      ...(c.hint ? { input: { hint: c.hint } } : {}),
    })),
  ];
}

/** The skipped files of a listing, for a notice. */
export function skippedOf(files: CommandFiles): SkippedFile[] {
  return files.skipped;
}

/** A command's or skill's text with its arguments (and, for a skill, its folder and the project's) put in. */
export function expandCommand(
  command: UserCommand,
  args: string,
  context: { cwd: string; sessionId?: string },
): string {
  let body = command.body;
  if (command.kind === "skill") {
    body = body
      .split("${CLAUDE_SKILL_DIR}")
      .join(command.dir ?? "")
      .split("${CLAUDE_PROJECT_DIR}")
      .join(context.cwd)
      .split("${CLAUDE_SESSION_ID}")
      .join(context.sessionId ?? "");
  }
  return substituteArguments(body, args, command.argumentNames);
}
