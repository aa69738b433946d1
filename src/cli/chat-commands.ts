/**
 * What a chat entry is: a prompt for the agent, or one of the chat's own commands, answered at the
 * terminal and never sent (`/help`, `/exit`, `/quit`, `/rewind`, `/jobs`). An entry that starts with a
 * `/word` that is neither the chat's nor one of the session's commands (its last
 * `available_commands_update`) is answered with the list, never sent to the model: a typo'd
 * command would otherwise become a prompt. Text whose first word has another `/` in it (a path
 * such as `/etc/hosts`) is a prompt.
 */
import type { AvailableCommand } from "@agentclientprotocol/sdk";
import { isJobsCommand } from "./chat-jobs.ts";
import { isRewindCommand } from "./chat-rewind.ts";
import { oneLine } from "./terminal/progress-lines.ts";

export type ChatEntry =
  | { kind: "prompt" }
  | { kind: "help" }
  | { kind: "exit" }
  | { kind: "rewind" }
  | { kind: "jobs" }
  | { kind: "unknown"; command: string };

const OWN: { usage: string; what: string }[] = [
  { usage: "/help", what: "this list" },
  { usage: "/rewind [--files]", what: "go back to before an earlier prompt and send another instead" },
  { usage: "/jobs", what: "list the session's background jobs, with how each ended" },
  { usage: "/exit, /quit", what: "end the chat (as Ctrl-D on an empty prompt does)" },
];

/** The keys of the chat's line editor, as `/help` and docs/terminal.md say them. */
export const CHAT_KEYS =
  "Enter sends. Alt+Enter, Ctrl-J, or \\ at the end of a line then Enter, starts a new line; a paste is kept whole.\n" +
  "Up and Down go through the prompts sent; Ctrl-C cancels a turn (at the prompt it clears what is typed);\n" +
  "Ctrl-D on an empty prompt ends the chat.\n";

const commandName = (command: AvailableCommand) => command.name.replace(/^\//, "");

/** What `text` (an entry as typed) asks for, given the session's commands. */
export function chatEntry(text: string, commands: readonly AvailableCommand[]): ChatEntry {
  const word = /^\s*\/([^\s/]+)(?=\s|$)/.exec(text)?.[1];
  if (word === undefined) return { kind: "prompt" };
  if (word === "help" && text.trim() === "/help") return { kind: "help" };
  if ((word === "exit" || word === "quit") && text.trim() === `/${word}`) return { kind: "exit" };
  if (word === "rewind" && isRewindCommand(text)) return { kind: "rewind" };
  if (isJobsCommand(text)) return { kind: "jobs" };
  if (commands.some((c) => commandName(c) === word)) return { kind: "prompt" };
  return { kind: "unknown", command: word };
}

/** The chat's commands, then the session's (sent to the agent), then the keys. */
export function chatHelp(commands: readonly AvailableCommand[]): string {
  const rows = OWN.map((c) => `  ${c.usage.padEnd(20)} ${c.what}\n`).join("");
  const session = commands.length
    ? `The session's commands (sent to the agent):\n${commands
        .map((c) => `  /${oneLine(commandName(c)).padEnd(19)} ${oneLine(c.description)}\n`)
        .join("")}`
    : "The session offers no commands of its own.\n";
  return `Chat commands (answered here, never sent):\n${rows}${session}${CHAT_KEYS}`;
}

/** The answer to an unknown `/word`: nothing was sent, and what there is. */
export function unknownCommand(word: string, commands: readonly AvailableCommand[]): string {
  return `/${oneLine(word)} is not a command here; nothing was sent.\n${chatHelp(commands)}`;
}
