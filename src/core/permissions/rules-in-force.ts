/**
 * What the rules in force say of one call, for the gate: the settings rules this host recorded
 * (settings-rules.ts) and the session's answers, judged against the call's paths and commands.
 * Reads no settings file: the rules are the session's facts.
 */
import type { ContentBlock } from "@agentclientprotocol/sdk";
import { hostname } from "node:os";
import { fileURLToPath } from "node:url";
import type { DecidingRule } from "../../journal/facts/index.ts";
import type { SessionStateFold } from "../../replay/state.ts";
import { homeDir } from "../../shared/home-dir.ts";
import type { Tool } from "../tools/tool.ts";
import { callSubject, namesOf } from "./call-subject.ts";
import { pathMatches } from "./rules/path-match.ts";
import { judge, type CallSubject, type RuleEntry, type RuleSet, type RuleVerdict } from "./rules/rule-set.ts";
import { ruleSetOf, settingsInForce } from "./settings-rules.ts";

/** The rules' verdict on a call, the call as they saw it, and whether the workspace was trusted when they were read. */
export type JudgedCall = {
  verdict: RuleVerdict | undefined;
  subject: CallSubject;
  trusted: boolean;
  /** For a search: the paths a deny rule keeps out of its results (undefined when none could be). */
  hidden?: (path: string) => boolean;
};

export async function judgeCall(
  state: SessionStateFold,
  call: { tool: Tool; input: unknown; roots: readonly string[] },
): Promise<JudgedCall> {
  const settings = settingsInForce(state, hostname());
  const home = settings?.home ?? homeDir(process.env);
  const set = ruleSetOf(settings, state.rules, { cwd: state.cwd, home, ...commandsActing(state) });
  const subject = await callSubject(call.tool, call.input, { cwd: state.cwd, home, roots: call.roots });
  const hidden = SEARCHES.has(call.tool.name) ? deniedReads(set) : undefined;
  return { verdict: judge(set, subject), subject, trusted: settings?.trusted ?? false, ...(hidden ? { hidden } : {}) };
}

const SEARCHES = new Set(["Grep", "Glob"]);

/** The commands acting in the turn that runs (their recorded rules), if any. */
const commandsActing = (state: SessionStateFold) => (state.activeCommands ? { commands: state.activeCommands } : {});

/** Whether a path (or where it leads) is one a `Read` deny covers; undefined when no such rule stands. */
function deniedReads(set: RuleSet): ((path: string) => boolean) | undefined {
  const denies = set.rules.filter((r) => r.decision === "deny" && r.parsed.form === "path" && r.parsed.tool === "Read");
  if (denies.length === 0) return undefined;
  return (path) =>
    namesOf(path).some((name) =>
      denies.some((r) => r.parsed.form === "path" && pathMatches(r.parsed.pattern, name, r.anchors, "deny")),
    );
}

/** A rule as a card names it. */
export const decidingRule = (rule: RuleEntry): DecidingRule => ({
  text: rule.text,
  scope: rule.source.scope,
  ...(rule.source.path === undefined ? {} : { path: rule.source.path }),
});

/**
 * The embedded files of a prompt the model is not given: each `resource` block whose `file://`
 * path (or where it leads) a deny rule on `Read` covers, with that rule's text.
 */
export function withheldBlocks(
  state: SessionStateFold,
  blocks: readonly ContentBlock[],
): { index: number; rule: string }[] {
  const denied = readDenial(state);
  const withheld: { index: number; rule: string }[] = [];
  blocks.forEach((block, index) => {
    if (block.type !== "resource" || !block.resource.uri.startsWith("file://")) return;
    let path: string;
    try {
      path = fileURLToPath(block.resource.uri);
    } catch {
      return;
    }
    const rule = denied(path);
    if (rule !== undefined) withheld.push({ index, rule });
  });
  return withheld;
}

/**
 * The check of the session's rules in force (as its facts recorded them) for reading a file: the
 * text of the deny rule that refuses `path` to Read, or undefined when none does. Reads no file.
 */
export function readDenial(state: SessionStateFold): (path: string) => string | undefined {
  const settings = settingsInForce(state, hostname());
  const home = settings?.home ?? homeDir(process.env);
  const set = ruleSetOf(settings, state.rules, { cwd: state.cwd, home, ...commandsActing(state) });
  return (path) => {
    const verdict = judge(set, {
      tool: "Read",
      input: { file_path: path },
      reads: [{ paths: namesOf(path) }],
      writes: [],
    });
    return verdict?.decision === "deny" ? verdict.rules[0]!.text : undefined;
  };
}
