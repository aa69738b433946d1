/**
 * The visible text of a hook outcome, on its card or as a message of its own. Pure: recorded
 * facts in, text out.
 */
import type { FactOf, HookRun } from "../journal/facts/index.ts";

type Outcome = FactOf<"hook_outcome">;

const verdictWords: Record<string, Record<string, string>> = {
  PreToolUse: { allow: "allowed the call", deny: "denied the call", ask: "asks for permission", none: "no decision" },
  PermissionRequest: { allow: "allowed the call", deny: "denied the call", none: "no decision" },
  UserPromptSubmit: { block: "blocked the prompt", none: "done" },
  Stop: { block: "asked the model to continue", none: "done" },
  SubagentStop: { block: "asked the subagent to continue", none: "done" },
};

export function hookOutcomeLine(outcome: Outcome): string {
  const head = `Hook ${outcome.event}`;
  if (outcome.status === "running") {
    const running = outcome.runs.map((r) => runningText(r)).join(", ");
    return `${head}: running ${running}…`;
  }
  const verdict =
    verdictWords[outcome.event]?.[outcome.decision] ?? (outcome.decision === "none" ? "done" : outcome.decision);
  const lines = [`${head}: ${verdict}${outcome.reason ? ` — ${outcome.reason}` : ""}.`];
  if (outcome.inputRewritten) {
    const by = commandOf(outcome.runs, outcome.inputRewritten.byHookId);
    const losers = outcome.inputRewritten.conflictingHookIds.map((id) => commandOf(outcome.runs, id));
    lines.push(
      `Input rewritten by ${by}${losers.length ? ` (conflicting rewrites not used: ${losers.join(", ")})` : ""}.`,
    );
  }
  if (outcome.halted) lines.push(`A hook stopped the turn: ${outcome.halted.stopReason}.`);
  for (const message of outcome.systemMessages) lines.push(`Hook message: ${message}`);
  // Problems are shown; a systemMessage is already shown above.
  for (const run of outcome.runs) {
    for (const entry of run.entries) {
      const problem =
        entry.kind === "error" ||
        entry.kind === "conflict" ||
        (entry.kind === "warning" && !outcome.systemMessages.includes(entry.text));
      if (problem) lines.push(`${run.command}: ${entry.text}`);
    }
  }
  return lines.join("\n");
}

const runningText = (run: HookRun) => {
  const status = run.entries.find((e) => e.kind === "feedback");
  return status ? `${run.command} (${status.text})` : run.command;
};

const commandOf = (runs: HookRun[], hookId: string) => runs.find((r) => r.hookId === hookId)?.command ?? hookId;
