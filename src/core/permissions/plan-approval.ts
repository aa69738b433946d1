/**
 * Approving a plan (Claude Code's ExitPlanMode, as claude-agent-acp asks it: agent-conventions
 * §5.3). The question's options are the modes to continue in, by verbatim's mode ids: approving
 * switches the session to the chosen mode (journaled as a mode change, shown as
 * `current_mode_update`) before the call runs; `plan` keeps planning (the call is refused, and
 * what the user says next guides the model). Asked only in plan mode; saved rules never answer it.
 */
import type { PermissionOption } from "@agentclientprotocol/sdk";
import type { ModeId } from "../config/modes.ts";
import type { GateDecision } from "./call-gate.ts";

/** The tool whose calls are plan approvals. */
export const PLAN_APPROVAL_TOOL = "ExitPlanMode";

/** The options, in claude-agent-acp's order: `bypassPermissions` first, where the session offers it. */
export function planApprovalOptions(availableModes: readonly string[]): PermissionOption[] {
  const options: (PermissionOption & { optionId: ModeId })[] = [
    { optionId: "bypassPermissions", name: "Yes, and bypass permissions", kind: "allow_always" },
    { optionId: "acceptEdits", name: "Yes, and auto-accept edits", kind: "allow_always" },
    { optionId: "default", name: "Yes, and manually approve edits", kind: "allow_once" },
    { optionId: "plan", name: "No, keep planning", kind: "reject_once" },
  ];
  return options.filter((o) => o.optionId === "plan" || availableModes.includes(o.optionId));
}

/** A plan presented outside plan mode: nothing to approve, and no question. */
export const NOT_PLANNING: GateDecision = {
  run: false,
  by: "mode",
  reason: "the session is not in plan mode",
  modelText:
    "ExitPlanMode did nothing: the session is not in plan mode, so there is no plan to approve. Go on with the work.",
};

/** What the model is told when the user keeps planning. */
export const KEEP_PLANNING =
  "The user did not approve the plan and wants to keep planning: the session stays in plan mode. " +
  "Do not make changes; wait for what the user says next and revise the plan.";
