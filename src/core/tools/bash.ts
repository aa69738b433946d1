import { z } from "zod";
import { runLocal, type CommandEnd } from "./shell/local-process.ts";
import { OutputBuffer } from "./shell/output-buffer.ts";
import { unsetLine } from "./shell/command-env.ts";
import { runInTerminal } from "./shell/terminal-run.ts";
import { fenced, textContent, type Tool, type ToolContext, type ToolOutcome } from "./tool.ts";
import { defined } from "../../shared/defined.ts";

/** The line a command starts with to source the session's env file (the path single-quoted for the shell). */
const sourceLine = (path: string): string => `. '${path.replaceAll("'", "'\\''")}'\n`;

const input = z.lazy(() =>
  z.object({
    command: z.string().min(1).describe("The command to run (bash)"),
    timeout: z
      .number()
      .int()
      .positive()
      .optional()
      .describe("A timeout in milliseconds (default 120000, at most 600000)"),
    description: z.string().optional().describe("What the command does, in a few words"),
  }),
);
type Input = z.infer<typeof input>;

const BASH_DEFAULT_TIMEOUT_MS = 120_000;
const BASH_MAX_TIMEOUT_MS = 600_000;
/** The most output kept and given to the model; past it the middle is left out, with a note. */
export const BASH_MAX_OUTPUT = 30_000;
const PROGRESS_MS = 500;
const PROGRESS_TAIL = 4_000;
const TERMINAL_OUTPUT_BYTES = 256 * 1024;
const MAX_TITLE = 300;

/**
 * Runs a shell command in the session's working directory: in the client's terminal when it
 * offers one (shown live in the card), otherwise as a local process group. When the command
 * ends, the card shows its recorded output as text with the exit status.
 */
export const bashTool: Tool<Input> = {
  name: "Bash",
  description:
    "Runs a bash command in the working directory and returns its output (stdout and stderr) and exit code. " +
    `Output over ${BASH_MAX_OUTPUT} characters is cut in the middle. timeout is in milliseconds (default ${BASH_DEFAULT_TIMEOUT_MS}, ` +
    `at most ${BASH_MAX_TIMEOUT_MS}); a command that times out or is cancelled is killed with everything it started. ` +
    "Each command starts in the working directory with no input; prefer Read, Glob, Grep and Edit over cat, find, grep and sed.",
  input,
  kind: "execute",
  access: "execute",
  title: (i) => (i.command.length > MAX_TITLE ? `${i.command.slice(0, MAX_TITLE - 1)}…` : i.command),
  locations: () => [],
  ruleScope: (i) => i.command,
  async run(i, ctx) {
    const timeoutMs = Math.min(i.timeout ?? BASH_DEFAULT_TIMEOUT_MS, BASH_MAX_TIMEOUT_MS);
    // What SessionStart hooks exported (CLAUDE_ENV_FILE) is in effect for every command; the card and journal keep the model's command.
    const command = ctx.envFile ? `${sourceLine(ctx.envFile)}${i.command}` : i.command;
    const buffer = new OutputBuffer(BASH_MAX_OUTPUT);
    let end: CommandEnd;
    try {
      if (ctx.host.createTerminal) {
        const ran = await runInTerminal({
          host: { createTerminal: ctx.host.createTerminal },
          // The client's terminal has the client's environment: verbatim's secret names are unset first.
          command: `${unsetLine(ctx.commandEnv.removed)}${command}`,
          cwd: ctx.cwd,
          timeoutMs,
          outputByteLimit: TERMINAL_OUTPUT_BYTES,
          signal: ctx.signal,
          onTerminal: (terminalId) => ctx.progress([{ type: "terminal", terminalId }]),
        });
        if (ran.truncated) buffer.append(`… [earlier output dropped by the terminal] …\n`);
        buffer.append(ran.output);
        end = ran;
      } else {
        end = await runWithProgress(command, timeoutMs, ctx, buffer);
      }
    } catch (error) {
      const message = `The command could not be started: ${error instanceof Error ? error.message : String(error)}`;
      return { status: "failed", content: [textContent(message)], result: { text: message, isError: true } };
    }
    return outcome(end, buffer, timeoutMs);
  },
};

/** A local run, showing the latest output in the card while the command runs. */
async function runWithProgress(
  command: string,
  timeoutMs: number,
  ctx: ToolContext,
  buffer: OutputBuffer,
): Promise<CommandEnd> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let shownTotal = 0;
  const show = () => {
    timer = undefined;
    if (buffer.total === shownTotal) return;
    shownTotal = buffer.total;
    ctx.progress([textContent(fenced(buffer.last(PROGRESS_TAIL)))]);
  };
  try {
    return await runLocal({
      command,
      cwd: ctx.cwd,
      env: ctx.commandEnv.variables,
      timeoutMs,
      signal: ctx.signal,
      onOutput: (chunk) => {
        buffer.append(chunk);
        timer ??= setTimeout(show, PROGRESS_MS);
      },
    });
  } finally {
    // No progress may follow the final result.
    clearTimeout(timer);
  }
}

function outcome(end: CommandEnd, buffer: OutputBuffer, timeoutMs: number): ToolOutcome {
  const output = buffer.text();
  const status =
    end.stopped === "timeout"
      ? `Stopped: the command timed out after ${timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`} and was killed.`
      : end.stopped === "cancel"
        ? "Stopped: the user cancelled the command and it was killed."
        : end.exitCode !== null
          ? `Exit code ${end.exitCode}`
          : `Killed by signal ${end.signal ?? "unknown"}`;
  const note = buffer.truncated ? `\n(Output was ${buffer.total} characters; the middle was left out.)` : "";
  const ok = !end.stopped && end.exitCode === 0;
  return {
    status: ok ? "completed" : "failed",
    content: [textContent(`${output ? fenced(output) : "(no output)"}\n${status}${note}`)],
    rawOutput: {
      exitCode: end.exitCode,
      signal: end.signal,
      ...defined({ stopped: end.stopped }),
      outputChars: buffer.total,
    },
    result: { text: `${output || "(no output)"}\n${status}${note}`, isError: !ok },
  };
}
