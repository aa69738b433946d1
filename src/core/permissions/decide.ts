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
 * Rules (the settings files' and the session's "always" answers: rules/rule-set.ts) apply before
 * the mode's default: a deny rule refuses (even when permissions are bypassed), an ask rule asks
 * (even a read, even bypassed, even after a hook allowed), an allow rule runs without asking;
 * plan mode refuses whatever the rules say.
 *
 * A command the OS sandbox confines (src/core/sandbox/) runs without a question when
 * `autoAllowBashIfSandboxed` holds (`sandbox: "unasked"`; deny and ask rules and hooks still
 * decide first), and in plan mode runs read-only instead of being refused.
 */
import type { z } from "zod";
import type { PermissionRule, refusedBy } from "../../journal/facts/index.ts";
import type { Tool } from "../tools/tool.ts";
import { judge, type RuleEntry, type RuleVerdict } from "./rules/rule-set.ts";
import { sessionRuleEntry } from "./rules/rule-set.ts";

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

/**
 * `ruled`: what the rules in force say of the call (the gate judges them); without it, `rules`
 * (a session's "always" answers) are judged on the tool and its rule scope alone.
 */
export type PolicyInput = {
  tool: Tool;
  input: unknown;
  mode: string;
  rules?: readonly PermissionRule[];
  ruled?: RuleVerdict | undefined;
  hook?: HookVerdict;
  /** The call runs in the OS sandbox: `unasked` when the sandbox's auto-allow holds, else `asks`. */
  sandbox?: "unasked" | "asks";
};

/** The verdict of a session's answers alone, for a call judged without its paths or commands. */
function answersVerdict(tool: Tool, input: unknown, rules: readonly PermissionRule[]): RuleVerdict | undefined {
  const anchors = { cwd: "/", home: "/", source: "/" };
  const entries = rules.map((r) => sessionRuleEntry(r, anchors)).filter((e): e is RuleEntry => !("reason" in e));
  const scope = tool.ruleScope?.(input);
  return judge(
    { rules: entries, bad: [] },
    { tool: tool.name, input, reads: [], writes: [], ...(scope === undefined ? {} : { scope }) },
  );
}

/** A rule as the refusal names it: its text and where it is written. */
export const ruleNamed = (rule: RuleEntry): string =>
  rule.source.path === undefined ? `${rule.text} (this session)` : `${rule.text} in ${rule.source.path}`;

export function decide({ tool, input, mode, rules = [], ruled, hook, sandbox }: PolicyInput): Verdict {
  if (mode === "plan" && (tool.access === "edit" || tool.access === "execute") && sandbox === undefined) {
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
  const verdict = ruled ?? answersVerdict(tool, input, rules);
  if (verdict?.decision === "deny") {
    const rule = verdict.rules[0]!;
    const fromAnswer = rule.source.scope === "session";
    return {
      action: "deny",
      by: "rule",
      reason: fromAnswer ? "the user chose to always refuse this" : `deny rule ${ruleNamed(rule)}`,
      modelText: fromAnswer
        ? `${tool.name} was refused: the user chose to always refuse this call earlier in the session. Do not retry it; ask the user how to proceed.`
        : `${tool.name} was refused by the user's permission rule ${rule.text} (${rule.source.path}). Do not retry it or work around it; ask the user how to proceed.`,
    };
  }
  if (hook?.decision === "ask" || verdict?.decision === "ask") return { action: "ask" };
  if (tool.access === "read" || mode === "bypassPermissions" || hook?.decision === "allow") return { action: "allow" };
  if (verdict?.decision === "allow") return { action: "allow" };
  if (sandbox === "unasked" || (sandbox !== undefined && mode === "plan")) return { action: "allow" };
  if (mode === "acceptEdits" && tool.access === "edit") return { action: "allow" };
  return { action: "ask" };
}

/** What the model is told about a call a hook blocked. */
export const hookRefusalText = (tool: Tool, reason: string) =>
  `${tool.name} was blocked by a hook and did not run. The hook's reason:\n${reason}`;
