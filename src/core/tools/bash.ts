import { z } from "zod";
import { runLocal, type CommandEnd } from "./shell/local-process.ts";
import { OutputBuffer } from "./shell/output-buffer.ts";
import { unsetLine } from "./shell/command-env.ts";
import { runInTerminal } from "./shell/terminal-run.ts";
import { TerminalJob } from "./shell/terminal-job.ts";
import { movesAtTimeout, runMovable } from "./shell/movable-run.ts";
import { fenced, textContent, type JobHandle, type Tool, type ToolContext, type ToolOutcome } from "./tool.ts";
import { defined } from "../../shared/defined.ts";
import type { PreparedCommand, SandboxVerdicts } from "../sandbox/command-sandbox.ts";
import { violationsLine } from "../../replay/sandbox-card.ts";

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
    run_in_background: z
      .boolean()
      .optional()
      .describe(
        "Run the command in the background (a server, a watcher); read its output later with Read on its output file",
      ),
    dangerouslyDisableSandbox: z
      .boolean()
      .optional()
      .describe(
        "Run outside the OS sandbox: only after a command failed because the sandbox refused it; the user is asked first",
      ),
  }),
);
type Input = z.infer<typeof input>;

const BASH_DEFAULT_TIMEOUT_MS = 120_000;
const BASH_MAX_TIMEOUT_MS = 600_000;
/** With run_in_background, `timeout` caps the background run (Claude Code's figures). */
const BACKGROUND_DEFAULT_TIMEOUT_MS = 1_800_000;
const BACKGROUND_MAX_TIMEOUT_MS = 7_200_000;
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
    "Each command starts in the working directory with no input; prefer Read, Glob, Grep and Edit over cat, find, grep and sed. " +
    "With run_in_background the command keeps running (a dev server, a watcher): the answer names its job id and output file; " +
    "read new output with Read on that file and stop it with TaskStop. A foreground command that reaches its timeout moves to the " +
    "background the same way (except one starting with sleep or running git, which is killed). " +
    "Commands run in an OS sandbox where this machine has one: writes only inside the working directories and the temp folder, " +
    "no reading of secrets, network only to allowed hosts; the result says what the sandbox refused.",
  input,
  kind: "execute",
  access: "execute",
  title: (i) => (i.command.length > MAX_TITLE ? `${i.command.slice(0, MAX_TITLE - 1)}…` : i.command),
  locations: () => [],
  ruleScope: (i) => i.command,
  async run(i, ctx) {
    // What SessionStart hooks exported (CLAUDE_ENV_FILE) is in effect for every command; the card and journal keep the model's command.
    const given = ctx.envFile ? `${sourceLine(ctx.envFile)}${i.command}` : i.command;
    let prepared: PreparedCommand;
    try {
      prepared = ctx.sandbox ? await ctx.sandbox.prepare(given, i.command) : asGiven(given);
    } catch (error) {
      const message = `The command could not be started in the sandbox: ${error instanceof Error ? error.message : String(error)}`;
      return { status: "failed", content: [textContent(message)], result: { text: message, isError: true } };
    }
    // The line that runs: wrapped for the OS sandbox when the gate confined the command (src/core/sandbox/).
    const command = prepared.command;
    if (i.run_in_background) return background(i, command, ctx, prepared);
    const timeoutMs = Math.min(i.timeout ?? BASH_DEFAULT_TIMEOUT_MS, BASH_MAX_TIMEOUT_MS);
    const buffer = new OutputBuffer(BASH_MAX_OUTPUT);
    let end: CommandEnd;
    try {
      if (ctx.jobs && !ctx.host.createTerminal && movesAtTimeout(i.command)) {
        const ran = await runMovableWithProgress(i.command, command, timeoutMs, ctx, buffer, prepared);
        if ("moved" in ran) return ran.moved;
        end = ran.end;
      } else if (ctx.host.createTerminal) {
        const ran = await runInClientTerminal(i.command, command, timeoutMs, ctx, prepared);
        if ("moved" in ran) return ran.moved;
        if (ran.truncated) buffer.append(`… [earlier output dropped by the terminal] …\n`);
        buffer.append(ran.output);
        end = ran;
      } else {
        end = await runWithProgress(command, timeoutMs, ctx, buffer);
      }
    } catch (error) {
      await prepared.finish();
      const message = `The command could not be started: ${error instanceof Error ? error.message : String(error)}`;
      return { status: "failed", content: [textContent(message)], result: { text: message, isError: true } };
    }
    return withVerdicts(outcome(end, buffer, timeoutMs), await prepared.finish({ signal: ctx.signal }));
  },
};

const asGiven = (command: string): PreparedCommand => ({
  command,
  sandboxed: false,
  finish: async () => ({ violations: [], dropped: 0, retryOutside: false }),
});

/**
 * What the sandbox refused, told to the model with the result (the card shows it from its own
 * fact): what it can do about it is to ask the user to run the command outside the sandbox.
 */
function withVerdicts(result: ToolOutcome, verdicts: SandboxVerdicts): ToolOutcome {
  if (verdicts.violations.length === 0) return result;
  const line = violationsLine(verdicts.violations, verdicts.dropped);
  const allowed = verdicts.allowedAfter?.length
    ? ` The user then allowed ${verdicts.allowedAfter.join(", ")} for later commands: run the command again to reach it.`
    : "";
  const retry = allowed
    ? allowed
    : verdicts.retryOutside
      ? " If the command needs this, retry it with dangerouslyDisableSandbox: true (the user is asked first), or ask the user to allow the host or path."
      : "";
  return { ...result, result: { ...result.result, text: `${result.result.text}\n${line}${retry}` } };
}

const started = (job: { jobId: string; outputPath: string }) =>
  `with ID: ${job.jobId}. Output is being written to: ${job.outputPath}. Read that file (Read) for its output so far; stop it with TaskStop {"task_id": "${job.jobId}"}.`;

/** `run_in_background`: the command starts as one of the session's jobs, and the call answers at once. */
async function background(
  i: Input,
  command: string,
  ctx: ToolContext,
  prepared: PreparedCommand,
): Promise<ToolOutcome> {
  if (!ctx.jobs) {
    const message = "Background commands are not available here; run the command without run_in_background.";
    return { status: "failed", content: [textContent(message)], result: { text: message, isError: true } };
  }
  const timeoutMs = Math.min(i.timeout ?? BACKGROUND_DEFAULT_TIMEOUT_MS, BACKGROUND_MAX_TIMEOUT_MS);
  try {
    const job = ctx.host.createTerminal
      ? await ctx.jobs.adopt({
          process: new TerminalJob(await ctx.host.createTerminal(terminalParams(command, ctx))),
          shown: i.command,
          toolCallId: ctx.toolCallId,
          soFar: "",
          timeoutMs,
          onEnd: prepared.finish,
        })
      : await ctx.jobs.start({
          command,
          shown: i.command,
          toolCallId: ctx.toolCallId,
          cwd: ctx.cwd,
          env: ctx.commandEnv.variables,
          timeoutMs,
          onEnd: prepared.finish,
        });
    const text = `Command running in the background ${started(job)}`;
    return { status: "completed", content: [textContent(text)], rawOutput: job, result: { text, isError: false } };
  } catch (error) {
    await prepared.finish();
    const message = `The command could not be started: ${error instanceof Error ? error.message : String(error)}`;
    return { status: "failed", content: [textContent(message)], result: { text: message, isError: true } };
  }
}

/**
 * A local run that moves to the session's background jobs at its timeout (see movable-run.ts),
 * showing the latest output in the card while it runs in the foreground.
 */
async function runMovableWithProgress(
  shown: string,
  command: string,
  timeoutMs: number,
  ctx: ToolContext,
  buffer: OutputBuffer,
  prepared: PreparedCommand,
): Promise<{ end: CommandEnd } | { moved: ToolOutcome }> {
  const jobs = ctx.jobs as NonNullable<ToolContext["jobs"]>;
  const progress = outputProgress(ctx, buffer);
  let moved: ToolOutcome | undefined;
  try {
    const ran = await runMovable({
      command,
      cwd: ctx.cwd,
      env: ctx.commandEnv.variables,
      timeoutMs,
      signal: ctx.signal,
      onOutput: progress.output,
      onTimeout: async (process) => {
        progress.stop();
        const soFar = buffer.text();
        const job = await jobs.adopt({
          process,
          shown,
          toolCallId: ctx.toolCallId,
          soFar,
          movedAtTimeoutMs: timeoutMs,
          onEnd: prepared.finish,
        });
        moved = movedOutcome(job, soFar, timeoutMs);
        return true;
      },
    });
    return "moved" in ran && moved ? { moved } : { end: (ran as { end: CommandEnd }).end };
  } finally {
    progress.stop();
  }
}

/** What a command moved to the background at its timeout answers: its job, and what it printed until then. */
function movedOutcome(job: JobHandle, soFar: string, timeoutMs: number): ToolOutcome {
  const seconds = timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)}s`;
  const text = `Command did not complete within its ${seconds} timeout and was moved to the background ${started(job)}`;
  return {
    status: "completed",
    content: [textContent(text)],
    rawOutput: { ...job, movedAtTimeoutMs: timeoutMs },
    result: { text: `${soFar ? `${soFar}\n` : ""}${text}`, isError: false },
  };
}

/** The command line for the client's terminal, which has the client's environment: verbatim's secret names are unset first. */
const terminalCommand = (command: string, ctx: ToolContext): string => `${unsetLine(ctx.commandEnv.removed)}${command}`;

/** How a background command is created in the client's terminal (as runInTerminal creates a foreground one). */
function terminalParams(command: string, ctx: ToolContext) {
  return {
    command: "bash",
    args: ["-c", terminalCommand(command, ctx)],
    cwd: ctx.cwd,
    outputByteLimit: TERMINAL_OUTPUT_BYTES,
  };
}

/**
 * A run in the client's terminal, shown live in the card. At its timeout a command that moves
 * (movesAtTimeout) is handed, terminal and all, to the session's background jobs, as a local run is.
 */
async function runInClientTerminal(
  shown: string,
  command: string,
  timeoutMs: number,
  ctx: ToolContext,
  prepared: PreparedCommand,
): Promise<Exclude<Awaited<ReturnType<typeof runInTerminal>>, { moved: true }> | { moved: ToolOutcome }> {
  const jobs = movesAtTimeout(shown) ? ctx.jobs : undefined;
  let moved: ToolOutcome | undefined;
  const ran = await runInTerminal({
    host: { createTerminal: ctx.host.createTerminal as NonNullable<ToolContext["host"]["createTerminal"]> },
    command: terminalCommand(command, ctx),
    cwd: ctx.cwd,
    timeoutMs,
    outputByteLimit: TERMINAL_OUTPUT_BYTES,
    signal: ctx.signal,
    onTerminal: (terminalId) => ctx.progress([{ type: "terminal", terminalId }]),
    ...(jobs && {
      onTimeout: async (terminal) => {
        const { output: soFar } = await terminal.output();
        const job = await jobs.adopt({
          process: new TerminalJob(terminal, soFar),
          shown,
          toolCallId: ctx.toolCallId,
          soFar,
          movedAtTimeoutMs: timeoutMs,
          onEnd: prepared.finish,
        });
        // The model is given what it is given of any command's output (its file holds all of it).
        const given = new OutputBuffer(BASH_MAX_OUTPUT);
        given.append(soFar);
        moved = movedOutcome(job, given.text(), timeoutMs);
        return true;
      },
    }),
  });
  if ("moved" in ran) return { moved: moved as ToolOutcome };
  return ran;
}

/** A local run, showing the latest output in the card while the command runs. */
async function runWithProgress(
  command: string,
  timeoutMs: number,
  ctx: ToolContext,
  buffer: OutputBuffer,
): Promise<CommandEnd> {
  const progress = outputProgress(ctx, buffer);
  try {
    return await runLocal({
      command,
      cwd: ctx.cwd,
      env: ctx.commandEnv.variables,
      timeoutMs,
      signal: ctx.signal,
      onOutput: progress.output,
    });
  } finally {
    progress.stop();
  }
}

/**
 * A running command's output into `buffer`, its latest lines shown in the card at most every
 * PROGRESS_MS. `stop` ends the showing: no progress may follow the final result.
 */
function outputProgress(ctx: ToolContext, buffer: OutputBuffer): { output(chunk: string): void; stop(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let shownTotal = 0;
  const show = () => {
    timer = undefined;
    if (buffer.total === shownTotal) return;
    shownTotal = buffer.total;
    ctx.progress([textContent(fenced(buffer.last(PROGRESS_TAIL)))]);
  };
  return {
    output(chunk) {
      buffer.append(chunk);
      timer ??= setTimeout(show, PROGRESS_MS);
    },
    stop: () => clearTimeout(timer),
  };
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
