/**
 * A tool is defined once: its name, description and input schema (the model's view), how its
 * card is shown (kind, title, locations, a preview), what permission it needs, and how it runs.
 * What a card showed is recorded when the call is announced, so reload never calls any of this.
 */
import type { PlanEntry, ToolCallContent, ToolCallLocation, ToolKind } from "@agentclientprotocol/sdk";
import type { z } from "zod";
import type { AnsweredBy, ModelResult, Money } from "../../journal/facts/index.ts";
import type { UserCommand } from "../commands/command-files.ts";
import type { SubagentLauncher } from "./subagent-launcher.ts";
import { textContent } from "../../journal/facts/display-shapes.ts";
import type { CommandEnvironment } from "./shell/command-env.ts";
import type { JobRunner } from "./shell/job-runner.ts";
import type { CommandSandbox } from "../sandbox/command-sandbox.ts";

/** A background job as the tools name it to the model. */
export type JobHandle = { jobId: string; outputPath: string };

/** What a job printed, for TaskOutput: the part not read before, and whether the job has ended (how, if so). */
export type JobRead = { text: string; ended?: string; more?: number };

/**
 * The session's background jobs (src/core/jobs/session-jobs.ts): they outlive the call that
 * started them and end with the session. Every start, chunk of output and end is recorded.
 */
export interface JobControl {
  /** Starts `command` in the background on this call's card. */
  start(job: {
    command: string;
    shown: string;
    toolCallId: string;
    cwd: string;
    env: Record<string, string>;
    timeoutMs: number;
    /** Called when the job has ended, before its end is recorded (the sandbox's verdicts go on its card first). */
    onEnd?: () => Promise<unknown>;
  }): Promise<JobHandle>;
  /**
   * Takes over a command already running: a foreground command at its timeout (`soFar`: what it
   * printed until now; `movedAtTimeoutMs`: that timeout), or one started in the client's terminal
   * to run in the background (`timeoutMs`: when to stop it).
   */
  adopt(job: {
    process: JobRunner;
    shown: string;
    toolCallId: string;
    soFar: string;
    movedAtTimeoutMs?: number;
    timeoutMs?: number;
    /** Called when the job has ended, before its end is recorded (the sandbox's verdicts go on its card first). */
    onEnd?: () => Promise<unknown>;
  }): Promise<JobHandle>;
  /** Stops a job the model names; a message for the model, or undefined when no such job runs. */
  stop(jobId: string): Promise<string | undefined>;
  /** The job's output not read through this before (waits up to `waitMs` for the job to end); undefined for no such job. */
  read(jobId: string, waitMs: number, maxChars: number): Promise<JobRead | undefined>;
  /** The directory of the session's job output files, when `path` is one of them (Read may open it). */
  outputRoot(path: string): string | undefined;
}

/** A command running in the client's terminal (ACP `terminal/*`). */
export interface ClientTerminal {
  readonly id: string;
  /** The output so far; `exitStatus` is set once the command has exited. */
  output(): Promise<{ output: string; truncated: boolean; exitStatus?: ExitStatus | null }>;
  waitForExit(): Promise<ExitStatus>;
  kill(): Promise<void>;
  release(): Promise<void>;
}

export type ExitStatus = { exitCode?: number | null; signal?: string | null };

/** A form to put to the user (ACP elicitation, form mode): its message and its JSON schema. */
export type QuestionForm = { message: string; requestedSchema: Record<string, unknown> };

/** The client's answer to a form: the values entered, or that the user declined or dismissed it. */
export type FormAnswer =
  | { action: "accept"; content: Record<string, unknown> }
  | { action: "decline" }
  | { action: "cancel" };

/** A form's answer, naming the client that gave it when that was not the writer's own. */
export type HeldFormAnswer = FormAnswer & { answeredBy?: AnsweredBy };

/** What the client can do for tools, when it advertised the capability. */
export interface ToolHost {
  /** Puts a form to the user (the client advertised `elicitation.form`); rejects when `signal` aborts. */
  askForm?(form: QuestionForm & { toolCallId: string }, signal: AbortSignal): Promise<HeldFormAnswer>;
  /** The whole text of a file as the editor has it (unsaved buffers included). */
  readTextFile?(path: string): Promise<string>;
  writeTextFile?(path: string, content: string): Promise<void>;
  createTerminal?(params: {
    command: string;
    args: string[];
    cwd: string;
    outputByteLimit: number;
  }): Promise<ClientTerminal>;
}

/**
 * What a call may do, which decides when it is asked about: `read` never asks and is allowed
 * in plan mode; `edit` asks in `default` mode; `execute` and `network` ask unless permissions are
 * bypassed; `network` is also allowed (asked) in plan mode, as it changes nothing locally.
 */
export type ToolAccess = "read" | "edit" | "execute" | "network";

export type ToolContext = {
  sessionId: string;
  toolCallId: string;
  cwd: string;
  /** Directories file tools may touch: the cwd and the session's additional directories. */
  roots: string[];
  signal: AbortSignal;
  host: ToolHost;
  /** The content hash of each file as the model last saw it (read or written) in this session. */
  seenFiles: ReadonlyMap<string, string>;
  /** Shows new card content while the call runs (recorded before it is shown). */
  progress(content: ToolCallContent[]): void;
  /** Runs subagents (the `Task` tool); absent inside a subagent. */
  subagents?: SubagentLauncher;
  /** The skills the session has now (the `Skill` tool), read when asked. */
  skills?(): Promise<UserCommand[]>;
  /** Records that a loaded skill acts for the rest of the turn (its allowed-tools, model, effort, hooks). */
  activate?(command: UserCommand): Promise<void>;
  /** A file of variables SessionStart hooks set (`CLAUDE_ENV_FILE`), which Bash sources first. */
  envFile?: string;
  /**
   * Asks the user (present only when the client can answer forms): the question and its answer
   * are journaled and shown on the card; a cancelled turn answers `cancel` by the turn, and a
   * request the client failed answers `cancel` with its error.
   */
  ask?(form: QuestionForm): Promise<AskedAnswer>;
  /** The environment commands run in: verbatim's, with every secret it holds taken out. */
  commandEnv: CommandEnvironment;
  /** Paths a `Read` deny rule covers: a search (Grep, Glob) never shows them. */
  hidden?(path: string): boolean;
  /** The session's background jobs; absent where commands cannot outlive their call (a subagent). */
  jobs?: JobControl;
  /** Wraps a command for the OS sandbox as the gate decided (src/core/sandbox/); absent: commands run as given. */
  sandbox?: CommandSandbox;
};

/** How a question ended, as journaled. */
export type AskedAnswer = HeldFormAnswer & { cancelledBy?: "client" | "turn"; error?: string };

/** What a call will do, shown when it is announced, or why it cannot be done. */
export type Prepared = { content: ToolCallContent[]; problem?: string };

export type ToolOutcome = {
  status: "completed" | "failed";
  /** What the card shows. */
  content: ToolCallContent[];
  rawOutput?: unknown;
  /** What the model is told. */
  result: ModelResult;
  /** A new plan, for tools that drive ACP `plan` updates. */
  plan?: PlanEntry[];
  /** Files whose content the model now knows (by hash), for the "changed since read" check. */
  seen?: { path: string; sha256: string }[];
  /** What the call's own model calls cost (a subagent's session), counted in this session's cost. */
  cost?: Money;
};

export interface Tool<I = unknown> {
  readonly name: string;
  readonly description: string;
  /**
   * The input schema. The built-in tools build theirs on first use (`z.lazy`): building a schema
   * costs time when its module loads, and loading the engine (for a session load, say) runs no tool.
   */
  readonly input: z.ZodType<I>;
  /**
   * The JSON schema the model is given, when it is not derived from `input` (an MCP server's own
   * schema; `input` then checks the call loosely).
   */
  readonly inputJsonSchema?: Record<string, unknown>;
  readonly kind: ToolKind;
  readonly access: ToolAccess;
  title(input: I): string;
  locations(input: I): ToolCallLocation[];
  /**
   * What an "always" permission answer covers beyond the tool itself (a command, a domain), or
   * undefined when it covers every call of the tool. Recorded in the rule, never recomputed.
   */
  ruleScope?(input: I): string | undefined;
  /** Content shown when the call is announced (e.g. an edit's diff). */
  preview?(input: I, context: Pick<ToolContext, "cwd" | "roots" | "host">): Promise<ToolCallContent[]>;
  /**
   * Used instead of `preview` when the call is announced: the card's content, and from the same
   * read, why the call cannot succeed as things stand (`problem`). A call with a problem fails at
   * once, before any hook or permission question; without one, the content is exactly what the
   * call will do if nothing changes before it runs (and the call refuses to run if it did).
   */
  prepare?(input: I, context: Pick<ToolContext, "cwd" | "roots" | "host" | "seenFiles">): Promise<Prepared>;
  /**
   * Runs the call. What the tool checks (a path outside the roots, a missing file, a bad edit)
   * is an outcome with status `failed`, never a throw; an unexpected error may throw, and the
   * executor records it as the call failing unexpectedly (execute-calls.ts).
   */
  run(input: I, context: ToolContext): Promise<ToolOutcome>;
}

/** Tools take it from here, with `failed` and `fenced`: a card's text line, as the journal defines it. */
export { textContent };

export const failed = (text: string, display = text): ToolOutcome => ({
  status: "failed",
  content: [textContent(display)],
  result: { text, isError: true },
});

/** Text in a markdown code fence longer than any backtick run inside it. */
export function fenced(text: string, language = ""): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}${language}\n${text}${text.endsWith("\n") || text === "" ? "" : "\n"}${fence}`;
}
