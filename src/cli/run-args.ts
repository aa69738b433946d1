/**
 * `verbatim run`'s arguments, checked before anything is opened: each mistake is a usage error
 * saying what was wrong. The prompt comes from the argument, or from stdin (`-`, or no prompt
 * with stdin not a terminal); `--file` attaches files as embedded resources.
 */
import type { ContentBlock } from "@agentclientprotocol/sdk";
import { readFileSync, statSync } from "node:fs";
import { parseArgs } from "node:util";
import { isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { isModeId, modes } from "../core/config/modes.ts";
import { parseModelRef } from "../core/config/model-ref.ts";
import { isValidSessionId } from "../core/ids.ts";
import { CliError, usageError, USAGE_EXIT } from "./cli-error.ts";
import { defined } from "../shared/defined.ts";
import type { SessionChoice } from "./session-open.ts";

export type Approve = "all" | "edits" | "none";

/** The session to open (cwd, model, mode, which one to continue, trust), and how the run goes. */
export type RunOptions = SessionChoice & {
  prompt: ContentBlock[];
  /** `--max-turns`: the most model requests the turn may make (else the engine's cap). */
  maxTurns?: number;
  /** Who answers permission questions; undefined: the person at the terminal, if there is one (else none). */
  approve?: Approve;
  json: boolean;
};

export const RUN_USAGE =
  "usage: verbatim run [--model M] [--mode MODE] [--cwd DIR] [--approve all|edits|none]\n" +
  "                    [--session ID | --continue] [--file PATH]... [--json] [--max-turns N]\n" +
  "                    [--trust] PROMPT|-";

/** A file larger than this is refused: the model would be sent all of it with every turn. */
export const MAX_FILE_BYTES = 8 * 1024 * 1024;

export type Stdin = { isTTY: boolean; read(): Promise<string> };

const processStdin: Stdin = { isTTY: process.stdin.isTTY === true, read: () => Bun.stdin.text() };

/** Whether `--json` was asked for (so even an argument error can be reported as JSON). */
export const wantsJson = (args: string[]) => args.includes("--json");

export async function parseRunArgs(args: string[], stdin: Stdin = processStdin): Promise<RunOptions> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: runOptions,
    });
  } catch (error) {
    throw usageError(`${(error as Error).message}\n${RUN_USAGE}`);
  }
  const { values, positionals } = parsed;
  const choice = checkedSessionFlags(values);
  if (positionals.length > 1) {
    throw usageError(
      `run takes one prompt, got ${positionals.length} words: quote it (verbatim run "${positionals.join(" ").slice(0, 60)}")`,
    );
  }
  const text = await promptText(positionals[0], stdin);
  const files = (values.file ?? []).map(fileBlock);
  return {
    ...choice,
    prompt: [{ type: "text", text }, ...files],
    json: values.json ?? false,
    ...defined({ maxTurns: maxTurns(values["max-turns"]) }),
  };
}

/** `--max-turns N`: a whole number of model requests, at least 1. */
function maxTurns(given: string | undefined): number | undefined {
  if (given === undefined) return undefined;
  const n = Number(given);
  if (!/^\d+$/.test(given.trim()) || !Number.isSafeInteger(n) || n < 1)
    throw usageError(`--max-turns takes a whole number of model requests, at least 1, not "${given.slice(0, 60)}"`);
  return n;
}

/** The flags `run` and `chat` share, as given on the command line. */
export const sessionFlagOptions = {
  model: { type: "string" },
  mode: { type: "string" },
  cwd: { type: "string" },
  session: { type: "string" },
  continue: { type: "boolean", short: "c" },
  approve: { type: "string" },
  trust: { type: "boolean" },
} as const;

/** Every option `run` takes. */
export const runOptions = {
  ...sessionFlagOptions,
  file: { type: "string", multiple: true },
  json: { type: "boolean" },
  "max-turns": { type: "string" },
} as const;

type SessionFlags = {
  model?: string;
  mode?: string;
  cwd?: string;
  session?: string;
  continue?: boolean;
  approve?: string;
  trust?: boolean;
};

/** The shared flags checked: each mistake is a usage error saying what was wrong. */
export function checkedSessionFlags(values: SessionFlags): Omit<RunOptions, "prompt" | "json"> {
  const approve = values.approve;
  if (approve !== undefined && approve !== "all" && approve !== "edits" && approve !== "none") {
    throw usageError(`--approve takes all, edits or none, not "${approve}"`);
  }
  if (values.session !== undefined && values.session === "") {
    throw usageError(
      "--session needs a session id; `verbatim sessions` lists them (or use --continue for the latest one here)",
    );
  }
  if (values.session !== undefined && !isValidSessionId(values.session)) {
    throw usageError(
      `"${values.session.slice(0, 200)}" is not a session id (ids look like ses_01k...); \`verbatim sessions\` lists them`,
    );
  }
  if (values.session !== undefined && values.continue) throw usageError("give --session ID or --continue, not both");
  if (values.model !== undefined && !parseModelRef(values.model)) {
    throw usageError(
      `--model takes <provider>/<model> (e.g. anthropic/claude-sonnet-4-6), not "${values.model}"; \`verbatim models\` lists them`,
    );
  }
  if (values.mode !== undefined && !isModeId(values.mode)) {
    throw usageError(`--mode takes one of ${modes.map((m) => m.id).join(", ")}, not "${values.mode}"`);
  }
  return {
    cwd: checkedCwd(values.cwd),
    ...(approve !== undefined ? { approve } : {}),
    trust: values.trust ?? false,
    continueLatest: values.continue ?? false,
    ...defined({ model: values.model, mode: values.mode, session: values.session }),
  };
}

async function promptText(positional: string | undefined, stdin: Stdin): Promise<string> {
  if (positional !== undefined && positional !== "-") {
    if (positional.trim() === "") throw usageError("the prompt is empty");
    return positional;
  }
  if (positional === undefined && stdin.isTTY) {
    throw usageError(
      `no prompt: give it as an argument (quoted), or pipe it on stdin (echo "..." | verbatim run -)\n${RUN_USAGE}`,
    );
  }
  const text = await stdin.read();
  if (text.trim() === "")
    throw usageError("no prompt: stdin was empty; give the prompt as an argument, or pipe it on stdin");
  return text;
}

function checkedCwd(given: string | undefined): string {
  if (given === undefined) return process.cwd();
  const cwd = isAbsolute(given) ? given : resolve(given);
  const stat = statSync(cwd, { throwIfNoEntry: false });
  if (!stat) throw new CliError("invalid_cwd", `--cwd ${cwd}: there is no such folder`, USAGE_EXIT, { path: cwd });
  if (!stat.isDirectory())
    throw new CliError("invalid_cwd", `--cwd ${cwd} is a file, not a folder`, USAGE_EXIT, { path: cwd });
  return cwd;
}

/** A file as an embedded resource: text when it is UTF-8 text, else base64. */
function fileBlock(given: string): ContentBlock {
  const path = resolve(given);
  const fail = (why: string) => new CliError("invalid_file", `--file ${path}: ${why}`, USAGE_EXIT, { path });
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) throw fail("there is no such file");
  if (!stat.isFile()) throw fail("is not a regular file");
  if (stat.size > MAX_FILE_BYTES)
    throw fail(`is ${(stat.size / 1048576).toFixed(1)} MiB; attach files of at most ${MAX_FILE_BYTES / 1048576} MiB`);
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw fail(`cannot be read (${String((error as { code?: unknown }).code ?? error)})`);
  }
  const uri = pathToFileURL(path).href;
  const text = utf8Text(bytes);
  if (text !== undefined) return { type: "resource", resource: { uri, text } };
  return { type: "resource", resource: { uri, blob: bytes.toString("base64"), mimeType: "application/octet-stream" } };
}

function utf8Text(bytes: Buffer): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
