/**
 * Resolving one event occurrence from its handlers' results (hooks.md §12.4). Pure. Results are
 * taken in configuration order, never completion order, so the same handlers give the same
 * outcome however fast each one was:
 * - PreToolUse: deny > ask > allow > none; the first `updatedInput` in order wins and every
 *   other, different one is reported as a conflict; an allow binds to the input it judged, so
 *   after a rewrite only the rewriting handler's allow still counts.
 * - PermissionRequest: any deny wins, else any allow.
 * - UserPromptSubmit and Stop: any block wins; reasons are joined in order.
 * - `continue: false` from any handler halts the turn, whatever the event decided.
 */
import type { HookDecision, HookEntry, HookRun } from "../../journal/facts/index.ts";
import type { HandlerResult } from "./classify.ts";
import { cap } from "./classify.ts";
import type { HookEventName } from "./events.ts";
import { frameContext } from "./framing.ts";
import { defined } from "../../shared/defined.ts";

export type Rewrite = { input: Record<string, unknown>; byHookId: string; conflictingHookIds: string[] };

export type Resolution = {
  decision: HookDecision;
  reason?: string;
  rewrite?: Rewrite;
  /** Framed texts for the model, in order. */
  contexts: string[];
  systemMessages: string[];
  halted?: { stopReason: string };
  /** The runs as recorded, in order, with any conflict entries added. */
  runs: HookRun[];
};

type Vote = { decision: "allow" | "deny" | "ask"; reason?: string; result: HandlerResult };

export function resolve(event: HookEventName, ordered: HandlerResult[]): Resolution {
  const results = [...ordered].sort((a, b) => a.handler.displayOrder - b.handler.displayOrder);
  const notes = new Map<HandlerResult, HookEntry[]>();
  const note = (r: HandlerResult, entry: HookEntry) => notes.set(r, [...(notes.get(r) ?? []), entry]);
  const contexts: string[] = [];
  const context = (r: HandlerResult, text: string | undefined) => {
    if (text && text.trim() !== "") {
      contexts.push(frameContext(r.handler.location, text));
      note(r, { kind: "context", text: cap(text) });
    }
  };
  const systemMessages = results.flatMap((r) => (r.output?.systemMessage ? [r.output.systemMessage] : []));
  const stopReasons = results
    .filter((r) => r.output?.continue === false)
    .map((r) => r.output?.stopReason ?? "a hook stopped the turn");
  const halted = stopReasons.length > 0 ? { stopReason: stopReasons.join("; ") } : undefined;

  const { decision, reason, rewrite } = decide(event, results, { note, context, contexts }, halted);

  return {
    decision,
    ...(reason !== undefined && reason !== "" ? { reason } : {}),
    ...defined({ rewrite }),
    contexts,
    systemMessages,
    ...defined({ halted: event === "PreCompact" || event === "PostCompact" ? undefined : halted }),
    runs: results.map((r) => ({ ...r.run, entries: [...r.run.entries, ...(notes.get(r) ?? [])] })),
  };
}

/** What an event's rule decided, before the contexts, messages and runs every event shares. */
type Decided = { decision: HookDecision; reason?: string; rewrite?: Rewrite };

/** Where an event's rule records what it adds: entries shown with a run, context for the model (framed, in order). */
type Collect = {
  note: (r: HandlerResult, entry: HookEntry) => void;
  context: (r: HandlerResult, text: string | undefined) => void;
  contexts: readonly string[];
};

type Halted = { stopReason: string } | undefined;

/** Each event's rule (this file's opening comment), on results in configuration order. */
function decide(event: HookEventName, results: HandlerResult[], c: Collect, halted: Halted): Decided {
  switch (event) {
    case "PreToolUse":
      return preToolUse(results, c, halted);
    case "PermissionRequest":
      return permissionRequest(results, c.note);
    case "UserPromptSubmit":
      return userPromptSubmit(results, c, halted);
    case "Stop":
    case "SubagentStop":
      return stop(event, results, c, halted);
    case "PostToolUse":
    case "PostToolUseFailure":
      for (const r of results) {
        if (r.output?.decision === "block") c.context(r, r.output.reason ?? "a hook flagged this result");
        c.context(r, r.feedback);
        c.context(r, r.output?.hookSpecificOutput?.additionalContext);
      }
      return { decision: "none" };
    case "SessionStart":
      for (const r of results) c.context(r, r.output?.hookSpecificOutput?.additionalContext ?? r.plainText);
      return { decision: "none" };
    case "SubagentStart":
      for (const r of results) c.context(r, r.output?.hookSpecificOutput?.additionalContext);
      return { decision: "none" };
    case "PreCompact": {
      // Claude Code discards `continue` here: only a block skips the compaction.
      const blocks = results.flatMap((r) => blockReason(r));
      return blocks.length > 0 ? { decision: "block", reason: blocks.join("; ") } : { decision: "none" };
    }
    case "PostCompact":
    case "Notification":
    case "StopFailure":
    case "SessionEnd":
      return { decision: "none" };
  }
}

/** PreToolUse: the strongest vote, the first rewrite, and an allow that only binds to the input it judged. */
function preToolUse(results: HandlerResult[], c: Collect, halted: Halted): Decided {
  const votes = results.flatMap((r) => preToolUseVote(r, c.note));
  let { decision, reason } = strongest(votes);
  // A denied call runs no input at all: no rewrite applies.
  let rewrite = decision === "deny" ? undefined : chooseRewrite(results, votes, c.note);
  if (
    rewrite &&
    decision === "allow" &&
    !votes.some((v) => v.decision === "allow" && v.result.handler.hookId === rewrite?.byHookId)
  ) {
    // The allows judged the model's input, not the rewritten one: permission is decided again.
    decision = "none";
    reason = undefined;
    for (const v of votes)
      c.note(v.result, {
        kind: "warning",
        text: "its allow judged the input before another hook rewrote it; the rewritten input is checked again",
      });
  }
  for (const r of results) c.context(r, r.output?.hookSpecificOutput?.additionalContext);
  if (halted) {
    decision = "deny";
    reason = halted.stopReason;
    rewrite = undefined;
  }
  return { decision, ...defined({ reason, rewrite }) };
}

/** PermissionRequest: any deny wins, else any allow; what it cannot apply yet is noted. */
function permissionRequest(results: HandlerResult[], note: Collect["note"]): Decided {
  const votes: Vote[] = results.flatMap((r) => {
    const d = r.output?.hookSpecificOutput?.decision;
    if (!d) return [];
    if (d.updatedInput || d.updatedPermissions)
      note(r, {
        kind: "warning",
        text: "updatedInput and updatedPermissions are not supported for PermissionRequest yet; ignored",
      });
    return [{ decision: d.behavior, ...(d.message ? { reason: d.message } : {}), result: r }];
  });
  return strongest(votes);
}

/** UserPromptSubmit: any block (or halt) takes the prompt back; otherwise each handler's context goes with it. */
function userPromptSubmit(results: HandlerResult[], c: Collect, halted: Halted): Decided {
  const blocks = results.flatMap((r) => blockReason(r));
  if (blocks.length > 0 || halted)
    return { decision: "block", reason: [...blocks, ...(halted ? [halted.stopReason] : [])].join("; ") };
  for (const r of results) c.context(r, r.output?.hookSpecificOutput?.additionalContext ?? r.plainText);
  return { decision: "none" };
}

/** Stop and SubagentStop: a block's reason or added context keeps the turn going, unless a hook halted it. */
function stop(event: "Stop" | "SubagentStop", results: HandlerResult[], c: Collect, halted: Halted): Decided {
  if (halted) return { decision: "none" };
  const blocks = results.flatMap((r) => blockReason(r));
  for (const r of results) {
    const why = blockReason(r)[0];
    if (why) c.context(r, why);
    c.context(r, r.output?.hookSpecificOutput?.additionalContext);
  }
  if (c.contexts.length === 0) return { decision: "none" };
  return { decision: "block", reason: blocks.length > 0 ? blocks.join("; ") : `a ${event} hook added context` };
}

function preToolUseVote(r: HandlerResult, note: (r: HandlerResult, e: HookEntry) => void): Vote[] {
  if (r.blocked) return [{ decision: "deny", reason: r.blocked.reason, result: r }];
  const out = r.output;
  if (!out) return [];
  const why = out.hookSpecificOutput?.permissionDecisionReason ?? out.reason;
  const given = out.hookSpecificOutput?.permissionDecision;
  const reasonOf = defined({ reason: why });
  if (given === "defer") {
    note(r, { kind: "warning", text: '"defer" is treated as "ask"' });
    return [{ decision: "ask", ...reasonOf, result: r }];
  }
  if (given) return [{ decision: given, ...reasonOf, result: r }];
  if (out.decision === "approve") return [{ decision: "allow", ...reasonOf, result: r }];
  if (out.decision === "block") return [{ decision: "deny", ...reasonOf, result: r }];
  return [];
}

const rank = { none: 0, allow: 1, ask: 2, deny: 3 } as const;

/** The strongest decision and the reasons given for it, joined in order. */
function strongest(votes: Vote[]): { decision: HookDecision; reason?: string } {
  let decision: "none" | Vote["decision"] = "none";
  for (const v of votes) if (rank[v.decision] > rank[decision]) decision = v.decision;
  const reasons = votes.filter((v) => v.decision === decision && v.reason).map((v) => v.reason as string);
  return { decision, ...(reasons.length ? { reason: reasons.join("; ") } : {}) };
}

function chooseRewrite(
  results: HandlerResult[],
  votes: Vote[],
  note: (r: HandlerResult, e: HookEntry) => void,
): Rewrite | undefined {
  const denied = new Set(votes.filter((v) => v.decision === "deny").map((v) => v.result));
  const offers = results.filter((r) => !denied.has(r) && r.output?.hookSpecificOutput?.updatedInput !== undefined);
  const [winner, ...others] = offers;
  const input = winner?.output?.hookSpecificOutput?.updatedInput;
  if (!winner || !input) return undefined;
  const same = JSON.stringify(input);
  const losers = others.filter((r) => JSON.stringify(r.output?.hookSpecificOutput?.updatedInput) !== same);
  for (const r of losers) {
    note(r, {
      kind: "conflict",
      text: `its updatedInput was not used: ${winner.handler.location} comes first and its rewrite wins`,
    });
  }
  if (losers.length > 0) {
    note(winner, {
      kind: "conflict",
      text: `its updatedInput wins over ${losers.map((r) => r.handler.location).join(", ")}`,
    });
  }
  return { input, byHookId: winner.handler.hookId, conflictingHookIds: losers.map((r) => r.handler.hookId) };
}

/** Why a handler blocks (exit 2, or `decision: "block"`), if it does. */
function blockReason(r: HandlerResult): string[] {
  if (r.blocked) return [r.blocked.reason];
  if (r.output?.decision === "block") return [r.output.reason ?? "blocked by a hook"];
  return [];
}
