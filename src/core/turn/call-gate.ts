/**
 * Whether an announced call may run. The gate is where the mode, saved permission rules,
 * permission questions and PreToolUse hooks decide; the turn only acts on the decision.
 */
import type { Tool } from "../tools/tool.ts";

export type GateDecision =
  | { run: true; input: unknown }
  | { run: false; by: "user" | "hook" | "mode" | "cancel" | "rule"; reason: string; modelText: string };

export type GateRequest = { toolCallId: string; tool: Tool; input: unknown; signal: AbortSignal };

export type CallGate = (request: GateRequest) => Promise<GateDecision>;

/** Read-only tools always run. Tools that change things are decided by the permission layer. */
export const readOnlyGate: CallGate = async ({ tool, input }) =>
  tool.readOnly
    ? { run: true, input }
    : { run: false, by: "mode", reason: `${tool.name} needs permission, and no permission policy is installed`, modelText: `${tool.name} is not available in this session.` };
