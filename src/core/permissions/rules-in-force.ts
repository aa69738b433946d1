/**
 * What the rules in force say of one call, for the gate: the settings rules this host recorded
 * (settings-rules.ts) and the session's answers, judged against the call's paths and commands.
 * Reads no settings file: the rules are the session's facts.
 */
import { hostname } from "node:os";
import type { DecidingRule } from "../../journal/facts/index.ts";
import type { SessionStateFold } from "../../replay/state.ts";
import { homeDir } from "../../shared/home-dir.ts";
import type { Tool } from "../tools/tool.ts";
import { callSubject } from "./call-subject.ts";
import { judge, type CallSubject, type RuleEntry, type RuleVerdict } from "./rules/rule-set.ts";
import { ruleSetOf, settingsInForce } from "./settings-rules.ts";

/** The rules' verdict on a call, the call as they saw it, and whether the workspace was trusted when they were read. */
export type JudgedCall = { verdict: RuleVerdict | undefined; subject: CallSubject; trusted: boolean };

export function judgeCall(
  state: SessionStateFold,
  call: { tool: Tool; input: unknown; roots: readonly string[] },
): JudgedCall {
  const settings = settingsInForce(state, hostname());
  const home = settings?.home ?? homeDir(process.env);
  const set = ruleSetOf(settings, state.rules, { cwd: state.cwd, home });
  const subject = callSubject(call.tool, call.input, { cwd: state.cwd, home, roots: call.roots });
  return { verdict: judge(set, subject), subject, trusted: settings?.trusted ?? false };
}

/** A rule as a card names it. */
export const decidingRule = (rule: RuleEntry): DecidingRule => ({
  text: rule.text,
  scope: rule.source.scope,
  ...(rule.source.path === undefined ? {} : { path: rule.source.path }),
});
