/**
 * Whether an announced call may run. The gate is where the mode, saved permission rules,
 * permission questions and PreToolUse hooks decide; the turn only acts on the decision. A gate
 * journals what it asks and what it was answered through `session.record` before acting.
 */
import type { Fact } from "../../journal/facts/index.ts";
import type { SessionStateFold } from "../../replay/state.ts";
import type { Tool } from "../tools/tool.ts";
import type { HookVerdict, RefusedBy } from "./decide.ts";
import type { Confinement } from "../sandbox/confinement.ts";

export type GateDecision =
  /**
   * `roots`: directories outside the session's own that this call may use (the user allowed it).
   * `hidden`: paths a deny rule keeps from the call's results (a search never shows them).
   */
  /** `sandbox`: for a command, whether it runs in the OS sandbox (src/core/sandbox/), decided here once. */
  | { run: true; input: unknown; roots?: string[]; hidden?: (path: string) => boolean; sandbox?: Confinement }
  /**
   * `endsTurn`: the refusal is the user's cancel of the turn (the client answered the question
   * `cancelled`, which ACP gives a question the user's cancel left open): the turn ends as
   * cancelled, its other calls do not run and the model takes no further step.
   */
  | { run: false; by: RefusedBy; reason: string; modelText: string; endsTurn?: true };

/** `roots`: the directories file tools may use without asking (the session's, plus any granted). */
export type GateRequest = { toolCallId: string; tool: Tool; input: unknown; signal: AbortSignal; roots: string[] };

/** PreToolUse's verdict (if any handler gave one) and the input that runs (rewritten or not). */
export type PreToolUseResult = { verdict?: HookVerdict; input: unknown };

/** What a gate asks of hooks (src/core/hooks runs them; the turn's hooks are these and more). */
export interface GateHooks {
  preToolUse(request: GateRequest): Promise<PreToolUseResult>;
  /** Before the user is asked: a hook may allow or deny instead. */
  permissionRequest(request: GateRequest): Promise<HookVerdict | undefined>;
  /** The user is being asked now (Notification hooks, the host's "needs you"). */
  permissionPrompt(request: GateRequest): Promise<void>;
}

/**
 * What a gate may use of the session: its state (mode, rules), the journal, and its hooks;
 * `setMode` switches the session's mode (recorded, shown), for a plan the user approves.
 */
export type GateSession = {
  state: SessionStateFold;
  record(fact: Fact): Promise<void>;
  hooks?: GateHooks;
  setMode?(modeId: string): Promise<void>;
};

export type CallGate = (request: GateRequest, session: GateSession) => Promise<GateDecision>;

/** A call the turn's cancel stopped before it ran (while it waited to run, or to be answered). */
export const CANCELLED_BEFORE_RUN = {
  run: false,
  by: "cancel",
  reason: "the turn was cancelled",
  modelText: "The user cancelled the turn before this call ran; it did not run.",
} as const satisfies GateDecision;

/** Read-only tools run; nothing else does. For sessions with no way to ask anyone. */
export const readOnlyGate: CallGate = async ({ tool, input }) =>
  tool.access === "read"
    ? { run: true, input }
    : {
        run: false,
        by: "mode",
        reason: `${tool.name} needs permission and no one can be asked`,
        modelText: `${tool.name} is not available in this session.`,
      };
