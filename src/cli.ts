#!/usr/bin/env bun
/**
 * verbatim's entry point. With no arguments it is an ACP agent on stdio (stdout carries only
 * protocol messages). The subcommands are the rows of src/cli/command-table.ts; their usage and
 * help are drawn from those rows (src/cli/command-help.ts).
 */
import {
  asksHelp,
  type CommandSpec,
  commandHelp,
  invocation,
  nearestCommand,
  usageEntry,
  usageLine,
} from "./cli/command-help.ts";
import { COMMANDS, commandNamed, UsageMistake } from "./cli/command-table.ts";
import { VERSION } from "./shared/version.ts";

const ENVIRONMENT = `environment:
  VERBATIM_MODEL=<provider>/<model>   the model: anthropic/…, openai/…, openai-chat/…, a provider
                                      from the config file, or scripted/demo (offline)
  ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL
  OPENAI_API_KEY, OPENAI_BASE_URL     (OPENAI_BASE_URL=http://127.0.0.1:11434/v1 for Ollama)
  VERBATIM_HOME                       where the journal lives (default $XDG_DATA_HOME/verbatim)
  VERBATIM_DURABILITY=strict          fsync every append
  VERBATIM_MAX_MESSAGE_BYTES          the largest message a client may send (default 32 MiB)
  VERBATIM_NOTIFY_COMMAND             a command told of busy / needs you / done (JSON on stdin)
  VERBATIM_REPLAY_CACHE=off           neither store nor use the replay cache (reopen from facts)
  VERBATIM_EARLY_INITIALIZE=off       let the full agent answer initialize (not the start path)
  VERBATIM_REPLAY_FIRST=off           let a session/load wait for the whole engine (not only the replay)

config files: $XDG_CONFIG_HOME/verbatim/config.json, then .verbatim/config.json (see README)
`;

/** `verbatim --help`: the agent, then each command of the table with its summary. */
const usage = (): string =>
  [
    `verbatim ${VERSION}: an ACP coding agent whose sessions reopen exactly as they were shown live`,
    "",
    "usage:",
    usageEntry(
      "verbatim [--trust]",
      "run the ACP agent on stdio (what editors launch); --trust runs project hooks in every workspace it opens",
    ),
    ...COMMANDS.map((c) => usageEntry(invocation(c), c.summary)),
    usageEntry("verbatim help COMMAND", "a command's usage, options and details (as verbatim COMMAND --help)"),
    "  verbatim --version",
    "",
    ENVIRONMENT,
  ].join("\n");

const AT_A_TERMINAL = `verbatim is an ACP agent: it speaks the Agent Client Protocol (JSON-RPC) on stdin and stdout,
which is how an editor runs it. At a terminal, use:
  verbatim chat          a conversation here (questions asked in place; Ctrl-D ends)
  verbatim run "..."     one prompt, its transcript printed (see verbatim --help)
Waiting for ACP messages on stdin; Ctrl-C quits.
`;

async function serve(trust: boolean): Promise<number> {
  // A person who typed `verbatim` at a terminal would otherwise wait on a silent protocol stream.
  if ((await import("./start/stdin-terminal.ts")).stdinIsTerminal()) process.stderr.write(AT_A_TERMINAL);
  // `initialize` is answered here when it comes first, before the SDK and the engine load
  // (they are their own bundle, dist/agent.js); then the full agent takes the rest of stdin.
  const { answerInitializeEarly } = await import("./start/early-initialize.ts");
  const early = await answerInitializeEarly(Bun.stdin.stream(), { trust, env: process.env, cwd: process.cwd() });
  const { serveAgent } = await import("./cli/agent-entry.ts");
  await serveAgent({ trust, early });
  return 0;
}

/** An unknown command: the nearest one, if a letter or two off, and where the list is. */
function unknownCommand(command: string): number {
  const nearest = nearestCommand(command, [...COMMANDS.map((c) => c.name), "help"]);
  process.stderr.write(
    `verbatim: unknown command "${command.slice(0, 60)}"${nearest ? `; did you mean \`verbatim ${nearest}\`?` : ""}\n` +
      "`verbatim --help` lists the commands.\n",
  );
  return 2;
}

/** `verbatim help [COMMAND]`. */
function help(topic: string[]): number {
  if (topic.length === 0 || (topic.length === 1 && topic[0] === "help")) {
    process.stdout.write(usage());
    return 0;
  }
  const spec = topic.length === 1 ? commandNamed(topic[0] ?? "") : undefined;
  if (!spec)
    return topic.length === 1 ? unknownCommand(topic[0] ?? "") : usageMistake("usage: verbatim help [COMMAND]");
  process.stdout.write(commandHelp(spec));
  return 0;
}

const usageMistake = (text: string): number => {
  process.stderr.write(`${text}\n`);
  return 2;
};

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined) return serve(false);
  if (command === "--trust") {
    // A client running terminal authentication may append `setup` to the usual arguments.
    if (rest.length === 1 && rest[0] === "setup") return (commandNamed("setup") as CommandSpec).run([]);
    if (rest.length > 0) {
      process.stderr.write(`verbatim: unexpected arguments ${rest.join(" ")}\n\n${usage()}`);
      return 2;
    }
    return serve(true);
  }
  if (command === "--version" || command === "-v") {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  if (command === "--help" || command === "-h") return help([]);
  if (command === "help") return help(rest);
  const spec = commandNamed(command);
  if (!spec) return unknownCommand(command);
  if (asksHelp(rest)) return help([spec.name]);
  try {
    return await spec.run(rest);
  } catch (error) {
    if (!(error instanceof UsageMistake)) throw error;
    return usageMistake(
      `verbatim: ${error.message}\n${usageLine(error.spec)}\n\`verbatim help ${error.spec.name}\` says more.`,
    );
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    // A reader that went away (`verbatim show ID | head -1`) ends the command quietly, as `run` does.
    if ((error as { code?: string }).code === "EPIPE") process.exit(141);
    // A journal that cannot be used is the user's to fix: its message says what is wrong with which file.
    const expected = error instanceof Error && error.name === "JournalError";
    process.stderr.write(
      `verbatim: ${error instanceof Error ? (expected ? error.message : (error.stack ?? error.message)) : String(error)}\n`,
    );
    process.exit(1);
  },
);
