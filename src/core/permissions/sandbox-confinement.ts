/**
 * Whether a `Bash` call runs in the OS sandbox, decided once, by the gate, from the session's
 * facts: the sandbox keys in force, the call's input and command line, and whether the runtime
 * could start on this machine. Runs unsandboxed only when the user turned the sandbox off, the
 * machine cannot run it (then the user is told once a session and every command asks), the
 * model asked for it with `dangerouslyDisableSandbox` (which asks), or the command matches
 * `sandbox.excludedCommands` (permission-checked as usual).
 */
import { hostname } from "node:os";
import type { SessionStateFold } from "../../replay/state.ts";
import { homeDir } from "../../shared/home-dir.ts";
import type { GateSession } from "./call-gate.ts";
import { isBad, judge, ruleEntry, type CallSubject, type RuleEntry, type RuleSet } from "./rules/rule-set.ts";
import { absolutePattern } from "./rules/path-match.ts";
import { ruleSetOf, settingsInForce } from "./settings-rules.ts";
import type { Confinement } from "../sandbox/confinement.ts";

export type { Confinement };

/** The tool whose commands the sandbox confines. */
export const SANDBOXED_TOOL = "Bash";

/**
 * `VERBATIM_SANDBOX=off` decides without loading anything; otherwise the sandbox's own bundle
 * (sandbox-run.ts) decides, loaded here by the first command of the process.
 */
export async function bashConfinement(
  session: GateSession,
  input: unknown,
  subject: CallSubject,
  env: Record<string, string | undefined> = process.env,
): Promise<Confinement> {
  if (env.VERBATIM_SANDBOX === "off") return { sandboxed: false, why: "off" };
  const run = await import("../sandbox/sandbox-run.ts");
  return run.confine({
    settings: settingsInForce(session.state, hostname()),
    state: session.state,
    input,
    record: (fact) => session.record(fact),
    excluded: (patterns) => matchesAny(patterns, session.state, subject),
  });
}

/** Whether any command of the line matches one of `patterns` (`sandbox.excludedCommands`: then the whole line runs outside). */
function matchesAny(patterns: readonly string[], state: SessionStateFold, subject: CallSubject): boolean {
  if (patterns.length === 0) return false;
  const anchors = { cwd: state.cwd, home: homeDir(process.env), source: state.cwd };
  const rules = patterns
    .map((p) => ruleEntry(`Bash(${p})`, "deny", { scope: "session" }, anchors))
    .filter((e): e is RuleEntry => !isBad(e));
  // As a deny, a pattern holds when it matches any one command of the line.
  return judge({ rules, bad: [] }, subject)?.decision === "deny";
}

/** What the session's rules add to a command's sandbox policy: the paths `Read` denies cover, the hosts `WebFetch` allows name. */
export function sandboxRuleInputs(state: SessionStateFold): { readDenies: string[]; fetchHosts: string[] } {
  const settings = settingsInForce(state, hostname());
  const home = settings?.home ?? homeDir(process.env);
  const set: RuleSet = ruleSetOf(settings, state.rules, { cwd: state.cwd, home });
  const readDenies = set.rules.flatMap((r) =>
    r.decision === "deny" && r.parsed.form === "path" && r.parsed.tool === "Read"
      ? [absolutePattern(r.parsed.pattern, r.anchors, "deny")]
      : [],
  );
  const fetchHosts = set.rules.flatMap((r) =>
    r.decision === "allow" && r.parsed.form === "domain" ? [r.parsed.domain] : [],
  );
  return { readDenies, fetchHosts };
}
