#!/usr/bin/env bun
/**
 * verbatim's entry point. With no arguments it is an ACP agent on stdio (stdout carries only
 * protocol messages). Subcommands: setup, demo, sessions, show, run, chat, models, doctor, export, import, fork, delete, verify, trust.
 */
import { VERSION } from "./shared/version.ts";

const USAGE = `verbatim ${VERSION}: an ACP coding agent whose sessions reopen exactly as they were shown live

usage:
  verbatim [--trust]            run the ACP agent on stdio (what editors launch); --trust runs
                                project hooks in every workspace it opens
  verbatim chat [--model M] [--mode MODE] [--cwd DIR] [--approve all|edits|none]
                [--session ID | --continue] [--trust]
                                talk to the agent at a terminal: type a prompt and Enter; the
                                answer streams; permission questions are asked in place; Ctrl-C
                                cancels a turn, Ctrl-D ends; --session / --continue reopen a
                                session, drawing its transcript first
  verbatim setup                choose a model provider and its key, check it, save it in the
                                user config file (what an editor's terminal sign-in runs)
  verbatim trust [DIR]          trust DIR (default: the current directory): its project hooks run
  verbatim demo [--keep]        run a scripted session offline, reopen it, and check parity
  verbatim sessions [--cwd DIR] [--json]
                                list recorded sessions, newest first: when, model, turns, title,
                                and each session's subagent sessions under it
  verbatim show ID              print a session as a client sees it after reopening
  verbatim show ID --ids        list its message ids (to rewind to, or fork at)
  verbatim show ID --context    what its model was given: instruction files, skills, commands, agents
  verbatim rewind ID --to MSG [--files]
                                take a session back to a message (--files: restore verbatim's own edits after it)
  verbatim watch ID             follow a session as it is written, from any process (Ctrl-C stops)
  verbatim run [--model M] [--mode MODE] [--cwd DIR] [--approve all|edits|none] [--json]
               [--session ID | --continue] [--file PATH]... [--trust] PROMPT|-
                                run one prompt headless. PROMPT - (or no PROMPT with stdin not a
                                terminal) reads it from stdin; --file attaches a file; --session
                                or --continue (the latest session of --cwd) continues a session,
                                and --model / --mode then change its model or mode. At a
                                terminal (stdin and stderr) without --approve, permission
                                questions are asked there; else --approve answers (default none).
                                --json: one JSON object a line, each session/update, then last
                                {"sessionId","stopReason"} or {"error":{"code","message","data"?},"sessionId"?}
                                exit: 0 end_turn, 1 error, 2 usage, 3 refusal, 4 max_tokens,
                                5 max_turn_requests, 129 SIGHUP, 130 cancelled (Ctrl-C),
                                141 stdout closed, 143 SIGTERM
  verbatim models [--cwd DIR] [--json]
                                the configured providers' models; exit 1 if none can be used
  verbatim doctor [--cwd DIR] [--json]
                                check Bun, the journal, the config files, each provider and the
                                trusted folders; says what to fix; exit 1 if a check fails
  verbatim export ID [--file F] the session as a file (JSON lines: the format and its version,
                                then its records and the payloads they refer to)
  verbatim import F [--cwd DIR] [--new-id] [--keep-permissions]
                                bring an exported session into this journal; --cwd DIR: it
                                continues in DIR; --new-id: as a new session; prints its id.
                                What the file allowed where it ran (its "always" rules,
                                directory grants, additional directories, a mode that runs
                                calls unasked) does not hold here: each is named on stderr and
                                dropped, unless --keep-permissions keeps them
  verbatim fork ID              copy a session as it stands into a new one; prints the new id
  verbatim delete ID            delete a session
  verbatim verify ID            recompute the session's replay cache (turns and state) from its
                                facts and report any that differs (exit 1)
  verbatim --version

environment:
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

config files: $XDG_CONFIG_HOME/verbatim/config.json, then .verbatim/config.json (see README)
`;

const AT_A_TERMINAL = `verbatim is an ACP agent: it speaks the Agent Client Protocol (JSON-RPC) on stdin and stdout,
which is how an editor runs it. At a terminal, use:
  verbatim chat          a conversation here (questions asked in place; Ctrl-D ends)
  verbatim run "..."     one prompt, its transcript printed (see verbatim --help)
Waiting for ACP messages on stdin; Ctrl-C quits.
`;

// node:util costs milliseconds to load: only subcommands that parse arguments load it.
const parseArgs = async () => (await import("node:util")).parseArgs;

/** A subcommand's module, from the bundle past the start path (dist/agent.js). */
const subcommand = async <K extends keyof Commands>(name: K): Promise<Awaited<ReturnType<Commands[K]>>> =>
  (await (await import("./cli/agent-entry.ts")).commands[name]()) as Awaited<ReturnType<Commands[K]>>;
type Commands = typeof import("./cli/commands.ts").commands;

const setup = async (): Promise<number> => (await subcommand("setup")).runSetup();

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case undefined:
    case "--trust": {
      // A client running terminal authentication may append `setup` to the usual arguments.
      if (command === "--trust" && rest.length === 1 && rest[0] === "setup") return setup();
      if (rest.length > 0) {
        process.stderr.write(`verbatim: unexpected arguments ${rest.join(" ")}\n\n${USAGE}`);
        return 2;
      }
      // A person who typed `verbatim` at a terminal would otherwise wait on a silent protocol stream.
      if ((await import("./start/stdin-terminal.ts")).stdinIsTerminal()) process.stderr.write(AT_A_TERMINAL);
      const trust = command === "--trust";
      // `initialize` is answered here when it comes first, before the SDK and the engine load
      // (they are their own bundle, dist/agent.js); then the full agent takes the rest of stdin.
      const { answerInitializeEarly } = await import("./start/early-initialize.ts");
      const early = await answerInitializeEarly(Bun.stdin.stream(), { trust, env: process.env, cwd: process.cwd() });
      const { serveAgent } = await import("./cli/agent-entry.ts");
      await serveAgent({ trust, early });
      return 0;
    }
    case "setup": {
      if (rest.length > 0) {
        process.stderr.write("usage: verbatim setup\n");
        return 2;
      }
      return setup();
    }
    case "trust": {
      const { positionals } = (await parseArgs())({ args: rest, allowPositionals: true });
      if (positionals.length > 1) {
        process.stderr.write("usage: verbatim trust [DIR]\n");
        return 2;
      }
      const { trustCommand } = await subcommand("trust");
      return trustCommand(positionals[0] ?? process.cwd());
    }
    case "demo": {
      const { values } = (await parseArgs())({ args: rest, options: { keep: { type: "boolean" } } });
      const { runDemo } = await subcommand("demo");
      return runDemo({ keep: values.keep ?? false });
    }
    case "sessions": {
      const { values } = (await parseArgs())({
        args: rest,
        options: { cwd: { type: "string" }, json: { type: "boolean" } },
      });
      const { listSessions } = await subcommand("sessions");
      return listSessions({ ...(values.cwd ? { cwd: values.cwd } : {}), json: values.json ?? false });
    }
    case "show": {
      const { positionals, values } = (await parseArgs())({
        args: rest,
        allowPositionals: true,
        options: { ids: { type: "boolean" }, context: { type: "boolean" } },
      });
      if (positionals.length !== 1 || !positionals[0]) {
        process.stderr.write("usage: verbatim show ID [--ids | --context]\n");
        return 2;
      }
      if (values.ids) return (await subcommand("rewind")).showMessageIds(positionals[0]);
      if (values.context) return (await subcommand("showContext")).showContext(positionals[0]);
      const { showSession } = await subcommand("sessions");
      return showSession(positionals[0]);
    }
    case "rewind": {
      const { positionals, values } = (await parseArgs())({
        args: rest,
        allowPositionals: true,
        options: { to: { type: "string" }, files: { type: "boolean" } },
      });
      if (positionals.length !== 1 || !positionals[0] || !values.to) {
        process.stderr.write("usage: verbatim rewind ID --to MESSAGE [--files]\n");
        return 2;
      }
      return (await subcommand("rewind")).rewindCommand(positionals[0], {
        to: values.to,
        files: values.files ?? false,
      });
    }
    case "watch": {
      const { positionals } = (await parseArgs())({ args: rest, allowPositionals: true });
      if (positionals.length !== 1 || !positionals[0]) {
        process.stderr.write("usage: verbatim watch ID\n");
        return 2;
      }
      const { watchSession } = await subcommand("watch");
      return watchSession(positionals[0]);
    }
    case "chat": {
      const [{ checkedSessionFlags, sessionFlagOptions }, { chat, CHAT_USAGE }, { reportError, usageError }] =
        await Promise.all([subcommand("runArgs"), subcommand("chat"), subcommand("cliError")]);
      try {
        const { values, positionals } = (await parseArgs())({
          args: rest,
          allowPositionals: true,
          options: sessionFlagOptions,
        });
        if (positionals.length > 0)
          throw usageError(
            `chat takes no prompt: type it once chat starts (for one prompt, use verbatim run)\n${CHAT_USAGE}`,
          );
        return chat(checkedSessionFlags(values));
      } catch (error) {
        if ((error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS"))
          return reportError(usageError(`${(error as Error).message}\n${CHAT_USAGE}`), { json: false });
        return reportError(error, { json: false });
      }
    }
    case "run": {
      const [{ parseRunArgs, wantsJson }, { run }, { reportError }] = await Promise.all([
        subcommand("runArgs"),
        subcommand("run"),
        subcommand("cliError"),
      ]);
      let options;
      try {
        options = await parseRunArgs(rest);
      } catch (error) {
        return reportError(error, { json: wantsJson(rest) });
      }
      return run(options);
    }
    case "models": {
      const { values } = (await parseArgs())({
        args: rest,
        options: { cwd: { type: "string" }, json: { type: "boolean" } },
      });
      const { listModels } = await subcommand("models");
      return listModels({ ...(values.cwd ? { cwd: values.cwd } : {}), json: values.json ?? false });
    }
    case "doctor": {
      const { values } = (await parseArgs())({
        args: rest,
        options: { cwd: { type: "string" }, json: { type: "boolean" } },
      });
      const { doctor } = await subcommand("doctor");
      return doctor({ ...(values.cwd ? { cwd: values.cwd } : {}), json: values.json ?? false });
    }
    case "export": {
      const { values, positionals } = (await parseArgs())({
        args: rest,
        allowPositionals: true,
        options: { file: { type: "string" } },
      });
      if (positionals.length !== 1 || !positionals[0]) {
        process.stderr.write("usage: verbatim export ID [--file F]\n");
        return 2;
      }
      const { exportCommand } = await subcommand("exportImport");
      return exportCommand(positionals[0], values.file);
    }
    case "import": {
      const { values, positionals } = (await parseArgs())({
        args: rest,
        allowPositionals: true,
        options: { cwd: { type: "string" }, "new-id": { type: "boolean" }, "keep-permissions": { type: "boolean" } },
      });
      if (positionals.length !== 1 || !positionals[0]) {
        process.stderr.write("usage: verbatim import F [--cwd DIR] [--new-id] [--keep-permissions]\n");
        return 2;
      }
      const { importCommand } = await subcommand("exportImport");
      return importCommand(positionals[0], {
        ...(values.cwd ? { cwd: values.cwd } : {}),
        newId: values["new-id"] ?? false,
        keepPermissions: values["keep-permissions"] ?? false,
      });
    }
    case "fork":
    case "verify":
    case "delete": {
      const { positionals } = (await parseArgs())({ args: rest, allowPositionals: true });
      if (positionals.length !== 1 || !positionals[0]) {
        process.stderr.write(`usage: verbatim ${command} ID\n`);
        return 2;
      }
      const { forkCommand, deleteSession, verifySession } = await subcommand("sessions");
      const act = { fork: forkCommand, delete: deleteSession, verify: verifySession }[command];
      return act(positionals[0]);
    }
    case "--version":
    case "-v":
      process.stdout.write(`${VERSION}\n`);
      return 0;
    case "--help":
    case "-h":
    case "help":
      process.stdout.write(USAGE);
      return 0;
    default:
      process.stderr.write(`verbatim: unknown command "${command}"\n\n${USAGE}`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if ((error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      process.stderr.write(`verbatim: ${(error as Error).message}\n\n${USAGE}`);
      process.exit(2);
    }
    // A journal that cannot be used is the user's to fix: its message says what is wrong with which file.
    const expected = error instanceof Error && error.name === "JournalError";
    process.stderr.write(
      `verbatim: ${error instanceof Error ? (expected ? error.message : (error.stack ?? error.message)) : String(error)}\n`,
    );
    process.exit(1);
  },
);
