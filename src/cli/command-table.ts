/**
 * Every subcommand of verbatim, one row each: its name, summary, usage, options and handler. The
 * global usage, each command's `--help` and `verbatim help NAME` are drawn from these rows (see
 * command-help.ts), and `src/cli.ts` dispatches through them. A handler loads its module only when
 * it runs (from dist/agent.js, past the start path), so the table itself is text.
 */
import { type CommandSpec, type OptionSpec, parserOptions, usageLine } from "./command-help.ts";

/** A subcommand's module, from the bundle past the start path (dist/agent.js). */
const subcommand = async <K extends keyof Commands>(name: K): Promise<Awaited<ReturnType<Commands[K]>>> =>
  (await (await import("./agent-entry.ts")).commands[name]()) as Awaited<ReturnType<Commands[K]>>;
type Commands = typeof import("./commands.ts").commands;

/** A usage mistake found by the table's own parsing: said with the command's usage, exit 2. */
export class UsageMistake extends Error {
  constructor(
    readonly spec: CommandSpec,
    message: string,
  ) {
    super(message);
    this.name = "UsageMistake";
  }
}

type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;

/** The arguments parsed with the row's options; the count of positionals checked. */
async function parsed(spec: CommandSpec, args: string[]): Promise<{ values: Values; positionals: string[] }> {
  const { parseArgs } = await import("node:util");
  let result: { values: Values; positionals: string[] };
  try {
    result = parseArgs({ args, allowPositionals: true, options: parserOptions(spec) }) as typeof result;
  } catch (error) {
    throw new UsageMistake(spec, (error as Error).message);
  }
  const { min, max } = spec.positionals ?? { min: 0, max: 0 };
  const n = result.positionals.length;
  if (n < min) throw new UsageMistake(spec, `${spec.name} needs ${spec.usage.split(" ")[0]}`);
  if (n > max)
    throw new UsageMistake(
      spec,
      max === 0
        ? `${spec.name} takes no arguments, got ${result.positionals.join(" ").slice(0, 60)}`
        : `${spec.name} takes ${max === 1 ? "one argument" : `at most ${max} arguments`}, got ${n}`,
    );
  return result;
}

const str = (values: Values, key: string) => (typeof values[key] === "string" ? (values[key] as string) : undefined);
const bool = (values: Values, key: string) => values[key] === true;
const cwdOf = (values: Values) => {
  const cwd = str(values, "cwd");
  return cwd !== undefined ? { cwd } : {};
};

/** A row whose handler gets the parsed arguments. */
function command(
  row: Omit<CommandSpec, "run">,
  handle: (values: Values, positionals: string[], spec: CommandSpec) => Promise<number> | number,
): CommandSpec {
  const spec: CommandSpec = {
    ...row,
    run: async (args) => {
      const { values, positionals } = await parsed(spec, args);
      return handle(values, positionals, spec);
    },
  };
  return spec;
}

const CWD: OptionSpec = {
  type: "string",
  arg: "DIR",
  help: "the working directory whose sessions and config count (default: the current one)",
};
const JSON_LINES: OptionSpec = { type: "boolean", help: "one JSON object a line" };

/** The flags `run` and `chat` share (parsed by run-args.ts; the table says them). */
const SESSION_FLAGS: Record<string, OptionSpec> = {
  model: {
    type: "string",
    arg: "M",
    help: "the model, <provider>/<model>; on a continued session, a change recorded in it",
  },
  mode: {
    type: "string",
    arg: "MODE",
    help: "the mode (default, acceptEdits, plan, bypassPermissions); on a continued session, a change",
  },
  cwd: { type: "string", arg: "DIR", help: "the session's working directory (default: the current one)" },
  approve: {
    type: "string",
    arg: "all|edits|none",
    help: "who answers permission questions: all, edits only, or none (refused). Without it, asked at a terminal",
  },
  session: { type: "string", arg: "ID", help: "continue this session" },
  continue: { type: "boolean", short: "c", help: "continue the latest session of --cwd" },
  trust: { type: "boolean", help: "run the project's hooks in this workspace" },
};

export const RUN_DETAILS = `The prompt is the argument; with -, or with no argument while stdin is not a terminal, it is read
from stdin. At a terminal (stdin and stderr) without --approve, permission questions are asked
there; else --approve answers them (default none). --session or --continue continues a session,
and --model / --mode then change its model or mode.

--json: one JSON object a line, each session/update, then last
  {"sessionId","stopReason"} or {"error":{"code","message","data"?},"sessionId"?}

exit: 0 end_turn, 1 error, 2 usage, 3 refusal, 4 max_tokens, 5 max_turn_requests,
      129 SIGHUP, 130 cancelled (Ctrl-C), 141 stdout closed, 143 SIGTERM`;

const run: CommandSpec = {
  name: "run",
  summary:
    "run one prompt headless, through the real ACP path in process: the transcript on stdout, progress on stderr",
  usage:
    "[--model M] [--mode MODE] [--cwd DIR] [--approve all|edits|none]\n" +
    "[--session ID | --continue] [--file PATH]... [--json] [--max-turns N]\n" +
    "[--trust] PROMPT|-",
  details: RUN_DETAILS,
  options: {
    ...SESSION_FLAGS,
    file: { type: "string", arg: "PATH", multiple: true, help: "attach a file (its text, or base64), up to 8 MiB" },
    json: { type: "boolean", help: "JSON lines on stdout instead of the transcript" },
    "max-turns": {
      type: "string",
      arg: "N",
      help: "end the turn after N model requests (stop reason max_turn_requests, exit 5); default 50",
    },
  },
  run: async (args) => {
    const [{ parseRunArgs, wantsJson }, { run }, { reportError }] = await Promise.all([
      subcommand("runArgs"),
      subcommand("run"),
      subcommand("cliError"),
    ]);
    let options;
    try {
      options = await parseRunArgs(args);
    } catch (error) {
      return reportError(error, { json: wantsJson(args) });
    }
    return run(options);
  },
};

const chat: CommandSpec = {
  name: "chat",
  summary:
    "talk to the agent at a terminal: type a prompt and Enter; the answer streams; permission questions are asked in place; Ctrl-C cancels a turn, Ctrl-D ends",
  usage: "[--model M] [--mode MODE] [--cwd DIR] [--approve all|edits|none]\n[--session ID | --continue] [--trust]",
  details: "--session / --continue reopen a session, drawing its transcript first.",
  options: SESSION_FLAGS,
  run: async (args) => {
    const [{ checkedSessionFlags, sessionFlagOptions }, { chat: startChat }, { reportError, usageError }] =
      await Promise.all([subcommand("runArgs"), subcommand("chat"), subcommand("cliError")]);
    const { parseArgs } = await import("node:util");
    try {
      let given;
      try {
        given = parseArgs({ args, allowPositionals: true, options: sessionFlagOptions });
      } catch (error) {
        throw usageError(`${(error as Error).message}\n${usageLine(chat)}`);
      }
      if (given.positionals.length > 0)
        throw usageError(
          `chat takes no prompt: type it once chat starts (for one prompt, use verbatim run)\n${usageLine(chat)}`,
        );
      return await startChat(checkedSessionFlags(given.values));
    } catch (error) {
      return reportError(error, { json: false });
    }
  },
};

const setup = command(
  {
    name: "setup",
    summary:
      "choose a model provider and its key, check it, save it in the user config file (what an editor's terminal sign-in runs)",
    usage: "",
    options: {},
  },
  async () => (await subcommand("setup")).runSetup(),
);

/** The subcommands, in the order the global usage lists them. */
export const COMMANDS: readonly CommandSpec[] = [
  chat,
  setup,
  command(
    {
      name: "trust",
      summary: "trust DIR (default: the current directory): its project hooks run",
      usage: "[DIR]",
      options: {},
      positionals: { min: 0, max: 1 },
    },
    async (_, [dir]) => (await subcommand("trust")).trustCommand(dir ?? process.cwd()),
  ),
  command(
    {
      name: "demo",
      summary:
        "a scripted session offline, in under a minute: shown live, then reopened in a fresh process and compared",
      usage: "[--keep]",
      options: { keep: { type: "boolean", help: "keep the demo's workspace and journal, and say where" } },
    },
    async (values) => (await subcommand("demo")).runDemo({ keep: bool(values, "keep") }),
  ),
  command(
    {
      name: "sessions",
      summary:
        "list recorded sessions, newest first: when, model, turns, size, title, and each session's subagent sessions under it",
      usage: "[--cwd DIR] [--json]",
      options: { cwd: CWD, json: JSON_LINES },
    },
    async (values) => (await subcommand("sessions")).listSessions({ ...cwdOf(values), json: bool(values, "json") }),
  ),
  command(
    {
      name: "show",
      summary:
        "print a session as a client sees it after reopening (--ids: its message ids, to rewind to or fork at; --context: what its model was given)",
      usage: "ID [--ids | --context]",
      options: {
        ids: { type: "boolean", help: "list the session's message ids instead" },
        context: {
          type: "boolean",
          help: "print what its model was given instead: instruction files, skills, commands, agents",
        },
      },
      positionals: { min: 1, max: 1 },
    },
    async (values, [id = ""]) => {
      if (bool(values, "ids")) return (await subcommand("rewind")).showMessageIds(id);
      if (bool(values, "context")) return (await subcommand("showContext")).showContext(id);
      return (await subcommand("sessions")).showSession(id);
    },
  ),
  command(
    {
      name: "rewind",
      summary:
        "take a session back to a message (--files: restore verbatim's own edits after it, asked as an edit is; exit 3 if the restore is refused)",
      usage: "ID --to MESSAGE [--files [--approve all|edits|none]]",
      options: {
        to: { type: "string", arg: "MESSAGE", help: "the message to go back to (verbatim show ID --ids lists them)" },
        files: {
          type: "boolean",
          help: "also undo the file changes verbatim's Write and Edit made since in this workspace, where unchanged",
        },
        approve: {
          type: "string",
          arg: "all|edits|none",
          help: "who answers the restore's question: all or edits allow it, none refuses. Without it, asked at a terminal",
        },
      },
      positionals: { min: 1, max: 1 },
    },
    async (values, [id = ""], spec) => {
      const to = str(values, "to");
      if (!to) throw new UsageMistake(spec, "rewind needs --to MESSAGE");
      const approve = str(values, "approve");
      if (approve !== undefined && approve !== "all" && approve !== "edits" && approve !== "none")
        throw new UsageMistake(spec, "--approve takes all, edits or none");
      return (await subcommand("rewind")).rewindCommand(id, {
        to,
        files: bool(values, "files"),
        ...(approve !== undefined ? { approve } : {}),
      });
    },
  ),
  command(
    {
      name: "watch",
      summary: "follow a session as it is written, from any process or machine sharing the journal (Ctrl-C stops)",
      usage: "ID",
      options: {},
      positionals: { min: 1, max: 1 },
    },
    async (_, [id = ""]) => (await subcommand("watch")).watchSession(id),
  ),
  run,
  command(
    {
      name: "models",
      summary: "the configured providers' models; exit 1 if none can be used",
      usage: "[--cwd DIR] [--json]",
      options: { cwd: CWD, json: JSON_LINES },
    },
    async (values) => (await subcommand("models")).listModels({ ...cwdOf(values), json: bool(values, "json") }),
  ),
  command(
    {
      name: "doctor",
      summary:
        "check Bun, the journal (and its size), the config files, each provider and the trusted folders; says what to fix; exit 1 if a check fails",
      usage: "[--cwd DIR] [--json]",
      options: { cwd: CWD, json: JSON_LINES },
    },
    async (values) => (await subcommand("doctor")).doctor({ ...cwdOf(values), json: bool(values, "json") }),
  ),
  command(
    {
      name: "export",
      summary:
        "the session as a file (JSON lines: the format and its version, then its records and the payloads they refer to)",
      usage: "ID [--file F]",
      options: {
        file: { type: "string", arg: "F", help: "write a new file F, readable only by you (default: stdout)" },
      },
      positionals: { min: 1, max: 1 },
    },
    async (values, [id = ""]) => (await subcommand("exportImport")).exportCommand(id, str(values, "file")),
  ),
  command(
    {
      name: "import",
      summary: "bring an exported session into this journal; prints its id",
      usage: "F [--cwd DIR] [--new-id] [--keep-permissions]",
      details: `What the file allowed where it ran (its "always" rules, directory grants, additional
directories, a mode that runs calls unasked) does not hold here: each is named on stderr and
dropped, unless --keep-permissions keeps them.`,
      options: {
        cwd: {
          type: "string",
          arg: "DIR",
          help: "the session continues in DIR (default: the current directory; the one it ran in is kept as its origin, and show names it)",
        },
        "new-id": { type: "boolean", help: "import it as a new session (else an id already here is refused)" },
        "keep-permissions": { type: "boolean", help: "keep what the file allowed where it ran" },
      },
      positionals: { min: 1, max: 1 },
    },
    async (values, [file = ""]) =>
      (await subcommand("exportImport")).importCommand(file, {
        ...cwdOf(values),
        newId: bool(values, "new-id"),
        keepPermissions: bool(values, "keep-permissions"),
      }),
  ),
  command(
    {
      name: "fork",
      summary: "copy a session into a new one, as it stands or up to a message (--at); prints the new id",
      usage: "ID [--at MESSAGE]",
      options: {
        at: {
          type: "string",
          arg: "MESSAGE",
          help: "fork at this user or agent message, inclusive (verbatim show ID --ids lists them)",
        },
      },
      positionals: { min: 1, max: 1 },
    },
    async (values, [id = ""]) => (await subcommand("sessions")).forkCommand(id, str(values, "at")),
  ),
  command(
    {
      name: "delete",
      summary: "delete a session",
      usage: "ID",
      options: {},
      positionals: { min: 1, max: 1 },
    },
    async (_, [id = ""]) => (await subcommand("sessions")).deleteSession(id),
  ),
  command(
    {
      name: "prune",
      summary:
        "delete whole sessions (their records, payloads, replay cache and subagent sessions) last written more than AGE ago, except those a live process holds; on SQLite the file then shrinks",
      usage: "--older-than AGE [--dry-run]",
      options: {
        "older-than": { type: "string", arg: "AGE", help: "how long since a session's last record: 30d, 12h, 2w" },
        "dry-run": { type: "boolean", help: "list what would be deleted, and delete nothing" },
      },
    },
    async (values, _, spec) => {
      const olderThan = str(values, "older-than");
      if (!olderThan) throw new UsageMistake(spec, "prune needs --older-than AGE (such as 30d)");
      return (await subcommand("prune")).pruneCommand({ olderThan, dryRun: bool(values, "dry-run") });
    },
  ),
  command(
    {
      name: "verify",
      summary:
        "recompute the session's replay cache (turns and state) from its facts and report any that differs (exit 1)",
      usage: "ID",
      options: {},
      positionals: { min: 1, max: 1 },
    },
    async (_, [id = ""]) => (await subcommand("sessions")).verifySession(id),
  ),
];

export const commandNamed = (name: string): CommandSpec | undefined => COMMANDS.find((c) => c.name === name);
