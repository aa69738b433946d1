/**
 * Hook facts. A hook outcome is the resolved result of one hook event occurrence (every handler
 * that matched it), recorded when it happens: once when the handlers start (`running`) and once
 * when they have all settled, each record a higher `revision` of the same outcome.
 */
import { z } from "zod";
import { lazySchema } from "../../shared/lazy-schema.ts";
import { json, toolCallContent, toolCallLocation } from "./display-shapes.ts";

/** Where a configured handler came from. `project` and `local` run only in trusted workspaces. */
export const hookSource = z.object({
  /** `skill`: the `hooks` of a skill's front matter, registered when it was invoked (`path`: its SKILL.md). */
  kind: z.enum(["user", "project", "local", "skill"]),
  path: z.string(),
});
export type HookSource = z.infer<typeof hookSource>;

/** Something a handler said or did that is worth showing: never its raw stdout or stderr. */
export const hookEntry = z.object({
  kind: z.enum(["context", "feedback", "warning", "error", "stop", "conflict"]),
  text: z.string(),
});
export type HookEntry = z.infer<typeof hookEntry>;

/** One handler's run within an outcome. */
export const hookRun = z.object({
  /** Stable identity of the configured handler (same config, same id, across runs). */
  hookId: z.string(),
  /** This execution of it. */
  hookRunId: z.string(),
  source: hookSource,
  /** The command as configured (exec form: the program and its arguments, space-joined). */
  command: z.string(),
  status: z.enum(["running", "completed", "blocked", "failed", "timed_out", "cancelled"]),
  exitCode: z.number().int().optional(),
  signal: z.string().optional(),
  durationMs: z.number().optional(),
  entries: z.array(hookEntry),
});
export type HookRun = z.infer<typeof hookRun>;

export const hookDecision = z.enum(["allow", "deny", "ask", "block", "none"]);
export type HookDecision = z.infer<typeof hookDecision>;

/**
 * The outcome of one hook event occurrence. `revision` orders the records of one `outcomeId`:
 * a higher one supersedes; a lower or conflicting one never overwrites (it is shown apart, as
 * evidence). `toolCallId` is the call the outcome judged, when there is one; `messageId` is the
 * id it is shown under when it is tied to no card.
 */
export const hookOutcome = lazySchema(() =>
  z.object({
    kind: z.literal("hook_outcome"),
    outcomeId: z.string(),
    revision: z.number().int().positive(),
    messageId: z.string(),
    event: z.string(),
    /** The session whose loop fired the hook. */
    originSessionId: z.string(),
    toolCallId: z.string().optional(),
    turnId: z.string().optional(),
    status: z.enum(["running", "settled"]),
    decision: hookDecision,
    reason: z.string().optional(),
    runs: z.array(hookRun),
    /** A PreToolUse rewrite: the handler whose input runs, and those whose rewrites lost. */
    inputRewritten: z.object({ byHookId: z.string(), conflictingHookIds: z.array(z.string()) }).optional(),
    /** A handler said `continue: false`: the turn stops after the current step. */
    halted: z.object({ stopReason: z.string() }).optional(),
    /** `systemMessage`s, for the user only. */
    systemMessages: z.array(z.string()),
    /** Exactly the text the model is given because of this outcome (framed), if any. */
    modelContext: z.string().optional(),
  }),
);

/**
 * A PreToolUse hook rewrote a call's input: the input that runs, and the card as it is now
 * shown (title, locations and preview of the rewritten input).
 */
export const toolInputRewritten = lazySchema(() =>
  z.object({
    kind: z.literal("tool_input_rewritten"),
    toolCallId: z.string(),
    outcomeId: z.string(),
    rawInput: json,
    title: z.string(),
    locations: z.array(toolCallLocation),
    content: z.array(toolCallContent),
  }),
);

export const hookFacts = [hookOutcome, toolInputRewritten] as const;
