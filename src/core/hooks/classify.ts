/**
 * One handler's run, classified (hooks.md §12.4): what its exit code and output mean, and the
 * entries shown for it. Exit 0 is success (stdout is JSON when it starts with `{`); exit 2 is a
 * blocking error on events that can block (the reason is the JSON reason, else stderr); any
 * other exit is a non-blocking error; a command that cannot start (or exits 127) is an error
 * that also names the configuration, so a typo never disables a gate in silence.
 */
import type { HookEntry, HookRun } from "../../journal/facts/index.ts";
import { commandText, type CommandHandler } from "./config.ts";
import { hookEvents } from "./events.ts";
import { parseHookOutput, type HookOutput } from "./output.ts";
import type { CommandResult } from "./run-command.ts";
import { defined } from "../../shared/defined.ts";

export type HandlerResult = {
  handler: CommandHandler;
  run: HookRun;
  /** The parsed JSON output (exit 0 or 2). */
  output?: HookOutput;
  /** Exit 2 on an event that can block, or a failure of an `onFailure: "block"` handler. */
  blocked?: { reason: string };
  /** Exit 0 plain text (not JSON), trimmed. */
  plainText?: string;
  /** Exit 2 stderr, trimmed (feedback on events that cannot block). */
  feedback?: string;
};

/** Shown text is capped; the model's context has its own cap. */
const ENTRY_CAP = 2000;

/** Events where `onFailure: "block"` turns a failure into a block. */
const FAIL_CLOSED_EVENTS = new Set(["PreToolUse", "UserPromptSubmit"]);

export function classify(handler: CommandHandler, hookRunId: string, result: CommandResult): HandlerResult {
  const entries: HookEntry[] = [];
  const base: RunBase = {
    hookId: handler.hookId,
    hookRunId,
    source: handler.source,
    command: commandText(handler),
    durationMs: result.durationMs,
    ...(result.exitCode !== null ? { exitCode: result.exitCode } : {}),
    ...(result.signal ? { signal: result.signal } : {}),
  };
  const failClosed = handler.onFailure === "block" && FAIL_CLOSED_EVENTS.has(handler.event);
  const failure = (status: "failed" | "timed_out" | "cancelled", text: string): HandlerResult => {
    entries.push({ kind: status === "cancelled" ? "warning" : "error", text: cap(text) });
    if (failClosed && status !== "cancelled") {
      return {
        handler,
        run: { ...base, status: "blocked", entries },
        blocked: { reason: `the hook failed and is set to block on failure: ${text}` },
      };
    }
    return { handler, run: { ...base, status, entries } };
  };

  const stderr = result.stderr.trim();
  const ended = processFailure(handler, result, stderr);
  if (ended) return failure(ended.status, ended.text);
  const read = readStdout(result, entries);
  if ("error" in read) return failure("failed", read.error);
  const { output, plainText } = read;
  if (result.stdoutTruncated) entries.push({ kind: "warning", text: "its output was over 1 MiB and was cut" });
  if (output?.systemMessage) entries.push({ kind: "warning", text: cap(output.systemMessage) });
  if (output?.continue === false)
    entries.push({ kind: "stop", text: cap(output.stopReason ?? "the hook stopped the turn") });

  if (result.exitCode === 2) return exitTwo(handler, base, entries, output, stderr);
  return {
    handler,
    run: { ...base, status: "completed", entries },
    ...defined({ output, plainText }),
  };
}

/** A run's record before its status and entries are known. */
type RunBase = Omit<HookRun, "status" | "entries">;

/** A handler whose process did not end with exit 0 or 2 failed: how, and why it says so. */
function processFailure(
  handler: CommandHandler,
  result: CommandResult,
  stderr: string,
): { status: "failed" | "timed_out" | "cancelled"; text: string } | undefined {
  if (result.spawnError !== undefined) {
    return {
      status: "failed",
      text: `could not be started (${result.spawnError}); check the command in ${handler.location}`,
    };
  }
  if (result.stopped === "timeout") {
    return { status: "timed_out", text: `timed out after ${handler.timeoutSec} s; its process group was killed` };
  }
  if (result.stopped === "cancel")
    return { status: "cancelled", text: "cancelled with the turn; its process group was killed" };
  if (result.exitCode === 127) {
    return {
      status: "failed",
      text: `exited 127 (command not found)${stderr ? `: ${firstLine(stderr)}` : ""}; check the command in ${handler.location}`,
    };
  }
  if (result.exitCode !== 0 && result.exitCode !== 2) {
    const how = result.exitCode === null ? `was killed by ${result.signal ?? "a signal"}` : `exited ${result.exitCode}`;
    return {
      status: "failed",
      text: `${how} (not a block: only exit 2 blocks)${stderr ? `: ${firstLine(stderr)}` : ""}`,
    };
  }
  return undefined;
}

/**
 * Exit 0 or 2's stdout: JSON when it starts with `{` (its ignored fields noted in `entries`), else
 * plain text on exit 0. JSON that cannot be read fails the handler on exit 0 and is noted on exit 2.
 */
function readStdout(
  result: CommandResult,
  entries: HookEntry[],
): { output?: HookOutput; plainText?: string } | { error: string } {
  const stdout = result.stdout.trim();
  if (stdout.startsWith("{")) {
    const parsed = parseHookOutput(stdout);
    if (parsed.ok) {
      for (const dropped of parsed.dropped)
        entries.push({ kind: "warning", text: cap(`ignored a field of the wrong type: ${dropped}`) });
      for (const field of parsed.unapplied)
        entries.push({ kind: "warning", text: `verbatim does not apply ${field}; it had no effect` });
      return { output: parsed.output };
    }
    if (result.exitCode === 0) return { error: parsed.error };
    entries.push({ kind: "warning", text: cap(parsed.error) });
  } else if (stdout !== "" && result.exitCode === 0) {
    return { plainText: stdout };
  }
  return {};
}

/** Exit 2: a block on an event that can block; elsewhere, stderr is feedback (PermissionRequest ignores it). */
function exitTwo(
  handler: CommandHandler,
  base: RunBase,
  entries: HookEntry[],
  output: HookOutput | undefined,
  stderr: string,
): HandlerResult {
  const reason =
    output?.reason ??
    output?.hookSpecificOutput?.permissionDecisionReason ??
    (stderr || `blocked by the hook ${commandText(handler)}`);
  if (hookEvents[handler.event].blocking) {
    entries.push({ kind: "feedback", text: cap(reason) });
    return {
      handler,
      run: { ...base, status: "blocked", entries },
      ...defined({ output }),
      blocked: { reason },
    };
  }
  if (handler.event === "PermissionRequest") {
    entries.push({
      kind: "warning",
      text: "exit 2 is not a decision for PermissionRequest hooks (use hookSpecificOutput.decision); ignored",
    });
  } else if (stderr) {
    entries.push({ kind: "feedback", text: cap(stderr) });
  }
  return {
    handler,
    run: { ...base, status: "completed", entries },
    ...defined({ output }),
    ...(stderr ? { feedback: stderr } : {}),
  };
}

/** A run that has started and not settled, as shown while it runs. */
export function runningRun(handler: CommandHandler, hookRunId: string): HookRun {
  return {
    hookId: handler.hookId,
    hookRunId,
    source: handler.source,
    command: commandText(handler),
    status: "running",
    entries: handler.statusMessage ? [{ kind: "feedback", text: cap(handler.statusMessage) }] : [],
  };
}

const firstLine = (text: string) => text.split("\n")[0] ?? "";

export const cap = (text: string, limit = ENTRY_CAP) => (text.length > limit ? `${text.slice(0, limit - 1)}…` : text);
