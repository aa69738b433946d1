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
import { judge, type RuleEntry, type RuleVerdict } from "./rules/rule-set.ts";
import { ruleSetOf, settingsInForce } from "./settings-rules.ts";

export function rulesVerdict(
  state: SessionStateFold,
  call: { tool: Tool; input: unknown; roots: readonly string[] },
): RuleVerdict | undefined {
  const settings = settingsInForce(state, hostname());
  const home = settings?.home ?? homeDir(process.env);
  const set = ruleSetOf(settings, state.rules, { cwd: state.cwd, home });
  return judge(set, callSubject(call.tool, call.input, { cwd: state.cwd, home, roots: call.roots }));
}

/** A rule as a card names it. */
export const decidingRule = (rule: RuleEntry): DecidingRule => ({
  text: rule.text,
  scope: rule.source.scope,
  ...(rule.source.path === undefined ? {} : { path: rule.source.path }),
});
