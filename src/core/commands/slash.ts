/** Recognising a slash command in a prompt: its first block is text that starts `/<name>`. */
import type { ContentBlock } from "@agentclientprotocol/sdk";
import { type InlineRunner, runInlines } from "./shell-inlines.ts";
import {
  type CommandPlace,
  compactCommand,
  contextCommand,
  expandCommand,
  type UserCommand,
  userCommands,
} from "./project-commands.ts";

export type Invocation =
  | { kind: "compact"; arguments: string }
  | { kind: "context"; arguments: string }
  | {
      kind: "prompt";
      name: string;
      arguments: string;
      modelText: string;
      command: UserCommand;
      /** A `context: fork` skill: the model is asked to run it with the Skill tool, which forks it; it does not act in this turn itself. */
      forked?: true;
    };

/**
 * The command a prompt invokes, read against the user's command files as they are now (only
 * those inside their roots), or undefined (an unknown `/word`, such as a path, is an ordinary prompt).
 */
export async function invocationOf(
  blocks: ContentBlock[],
  place: CommandPlace,
  sessionId?: string,
  runInline?: InlineRunner,
): Promise<Invocation | undefined> {
  const first = blocks[0];
  if (first?.type !== "text") return undefined;
  const match = /^\s*\/([A-Za-z0-9][A-Za-z0-9_.:-]*)(?:\s+([\s\S]*))?$/.exec(first.text);
  if (!match?.[1]) return undefined;
  const name = match[1];
  const args = (match[2] ?? "").trim();
  if (name === compactCommand.name) return { kind: "compact", arguments: args };
  if (name === contextCommand.name) return { kind: "context", arguments: args };
  const command = (await userCommands(place)).find((c) => c.name === name);
  if (!command) return undefined;
  if (command.kind === "skill" && command.fork && command.modelInvocable)
    return { kind: "prompt", name, arguments: args, modelText: forkRequest(command, args), command, forked: true };
  const expanded = expandCommand(command, args, { cwd: place.cwd, ...(sessionId ? { sessionId } : {}) });
  return {
    kind: "prompt",
    name,
    arguments: args,
    modelText: await runInlines(expanded, command, place.trusted, runInline),
    command,
  };
}

/**
 * What the model reads when the user types a `context: fork` skill: to run it with the Skill tool
 * (which runs it in its subagent, tools/skill.ts), and report. Claude Code's own way is not
 * documented; this one keeps the subagent's card and report in the session as a model's call has them.
 */
function forkRequest(command: UserCommand, args: string): string {
  const input = JSON.stringify({ skill: command.name, ...(args ? { args } : {}) });
  return `The user ran /${command.name}, a skill that runs in a subagent of its own. Call the Skill tool now with ${input}, then tell the user what it reported.`;
}
