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
import { mintId } from "../ids.ts";
import type { GateSession } from "./call-gate.ts";
import { isBad, judge, ruleEntry, type CallSubject, type RuleEntry, type RuleSet } from "./rules/rule-set.ts";
import { absolutePattern } from "./rules/path-match.ts";
import { ruleSetOf, settingsInForce } from "./settings-rules.ts";
import { startSandbox } from "../sandbox/sandbox-runtime-host.ts";
import { sandboxInForce, type SandboxInForce } from "../sandbox/sandbox-settings.ts";
import type { Confinement } from "../sandbox/confinement.ts";

export type { Confinement };

/** The tool whose commands the sandbox confines. */
export const SANDBOXED_TOOL = "Bash";

/** Sessions (by their state) already told in this process that their commands cannot be sandboxed. */
const told = new WeakSet<SessionStateFold>();

export async function bashConfinement(
  session: GateSession,
  input: unknown,
  subject: CallSubject,
  env: Record<string, string | undefined> = process.env,
): Promise<Confinement> {
  const inForce = sandboxInForce(settingsInForce(session.state, hostname()));
  if (!inForce.enabled || env.VERBATIM_SANDBOX === "off") return { sandboxed: false, why: "off" };
  const start = await startSandbox();
  if (!start.ok) {
    await tellUnavailable(session, start.reason, start.install);
    return { sandboxed: false, why: "unavailable" };
  }
  const asked = (input as { dangerouslyDisableSandbox?: unknown }).dangerouslyDisableSandbox === true;
  if (asked && inForce.allowUnsandboxedCommands) return { sandboxed: false, why: "asked" };
  if (excluded(inForce, session.state, subject)) return { sandboxed: false, why: "excluded" };
  return { sandboxed: true, readOnly: session.state.modeId === "plan", inForce };
}

/** Whether any command of the line matches a `sandbox.excludedCommands` pattern (then the whole line runs outside). */
function excluded(inForce: SandboxInForce, state: SessionStateFold, subject: CallSubject): boolean {
  if (inForce.excludedCommands.length === 0) return false;
  const anchors = { cwd: state.cwd, home: homeDir(process.env), source: state.cwd };
  const rules = inForce.excludedCommands
    .map((p) => ruleEntry(`Bash(${p})`, "deny", { scope: "session" }, anchors))
    .filter((e): e is RuleEntry => !isBad(e));
  // As a deny, a pattern holds when it matches any one command of the line.
  return judge({ rules, bad: [] }, subject)?.decision === "deny";
}

/** The notice that this session's commands run unconfined and ask: once a session in this process. */
async function tellUnavailable(session: GateSession, reason: string, install: string | undefined): Promise<void> {
  if (told.has(session.state)) return;
  told.add(session.state);
  await session.record({
    kind: "notice_shown",
    messageId: mintId("msg"),
    severity: "warning",
    title: "Commands are not sandboxed here: each one asks first",
    description: `${reason}.${install ? ` Install ${install} (apt-get install ${install}) and start a new session; \`verbatim doctor\` checks it.` : ""}`,
  });
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
