/**
 * The permission policy, pure: from the session's mode, its saved rules and (later) a PreToolUse
 * hook's verdict, whether a call runs, is refused, or needs the user's answer.
 *
 * | access  | default | acceptEdits | plan    | bypassPermissions |
 * |---------|---------|-------------|---------|-------------------|
 * | read    | run     | run         | run     | run               |
 * | edit    | ask     | run         | refused | run               |
 * | execute | ask     | ask         | refused | run               |
 * | network | ask     | ask         | ask     | run               |
 *
 * Saved rules apply before the mode's default: a deny rule refuses (even when permissions are
 * bypassed), an allow rule runs without asking; plan mode refuses whatever the rules say.
 */
import type { z } from "zod";
import type { PermissionRule, refusedBy } from "../../journal/facts/index.ts";
import type { Tool } from "../tools/tool.ts";

/** Who refused a call: the kinds the journal's `tool_call_refused.by` records. */
export type RefusedBy = z.infer<typeof refusedBy>;

export type Verdict =
  | { action: "allow" }
  | { action: "ask" }
  | { action: "deny"; by: RefusedBy; reason: string; modelText: string };

/**
 * A hook's decision, one more input to the policy. `reason` is shown to the user; `modelReason`
 * is the same reason as the model is given it (framed as hook text).
 */
export type HookVerdict = { decision: "allow" | "deny" | "ask"; reason?: string; modelReason?: string };

export type PolicyInput = {
  tool: Tool;
  input: unknown;
  mode: string;
  rules: readonly PermissionRule[];
  hook?: HookVerdict;
};

/** Whether a saved rule covers this call. */
function ruleMatches(rule: PermissionRule, tool: Tool, input: unknown): boolean {
  return rule.toolName === tool.name && (rule.scope === undefined || rule.scope === tool.ruleScope?.(input));
}

export function decide({ tool, input, mode, rules, hook }: PolicyInput): Verdict {
  if (mode === "plan" && (tool.access === "edit" || tool.access === "execute")) {
    return {
      action: "deny",
      by: "mode",
      reason: "plan mode allows only read-only tools",
      modelText: `${tool.name} was refused: the session is in plan mode, where only read-only tools run. Do not retry it; finish planning and present the plan.`,
    };
  }
  if (hook?.decision === "deny") {
    const reason = hook.reason ?? "a PreToolUse hook refused the call";
    return { action: "deny", by: "hook", reason, modelText: hookRefusalText(tool, hook.modelReason ?? reason) };
  }
  const matching = rules.filter((rule) => ruleMatches(rule, tool, input));
  if (matching.some((rule) => rule.decision === "deny")) {
    return {
      action: "deny",
      by: "rule",
      reason: "the user chose to always refuse this",
      modelText: `${tool.name} was refused: the user chose to always refuse this call earlier in the session. Do not retry it; ask the user how to proceed.`,
    };
  }
  if (hook?.decision === "ask") return { action: "ask" };
  if (tool.access === "read" || mode === "bypassPermissions" || hook?.decision === "allow") return { action: "allow" };
  if (matching.length > 0) return { action: "allow" };
  if (mode === "acceptEdits" && tool.access === "edit") return { action: "allow" };
  return { action: "ask" };
}

/** What the model is told about a call a hook blocked. */
export const hookRefusalText = (tool: Tool, reason: string) =>
  `${tool.name} was blocked by a hook and did not run. The hook's reason:\n${reason}`;
