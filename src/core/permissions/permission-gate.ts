import {
  CANCELLED_BEFORE_RUN,
  type CallGate,
  type GateDecision,
  type GateRequest,
  type GateSession,
} from "./call-gate.ts";
import { decide, hookRefusalText } from "./decide.ts";
import { decidingRule, judgeCall, type JudgedCall } from "./rules-in-force.ts";
import type { RuleVerdict } from "./rules/rule-set.ts";
import { isInside, directoryOf } from "../tools/paths.ts";
import { KEEP_PLANNING, NOT_PLANNING, PLAN_APPROVAL_TOOL, planApprovalOptions } from "./plan-approval.ts";
import { defined } from "../../shared/defined.ts";
import { bashConfinement, SANDBOXED_TOOL, type Confinement } from "./sandbox-confinement.ts";
import {
  askAboutHosts,
  askUser,
  outsideQuestion,
  type PermissionGateOptions,
  type Question,
  toolQuestion,
} from "./permission-questions.ts";

/**
 * The gate. With hooks, PreToolUse runs first and its verdict joins the policy's inputs; a
 * rewrite it made is the input decided on (rules are checked again on it) and the input that
 * runs. When the policy says to ask, PermissionRequest hooks may allow or deny first; only then
 * is the user asked.
 */
export function permissionGate(options: PermissionGateOptions): CallGate {
  return (request, session) => gateCall(options, request, session);
}

/** Records the policy's ruling on a call (`permission_ruled`), naming the rules when they made it. */
type Ruling = (decision: "allow" | "ask" | "deny", why?: string) => Promise<void>;

/** What the gate lets a call run with: the input decided on, the directories outside and the hidden paths it may use, its sandbox. */
type Allowed = Extract<GateDecision, { run: true }>;

/** One call through the gate: PreToolUse, then the plan's approval or the policy's verdict, asking when it says to. */
async function gateCall(
  options: PermissionGateOptions,
  request: GateRequest,
  session: GateSession,
): Promise<GateDecision> {
  const pre = session.hooks ? await session.hooks.preToolUse(request) : undefined;
  // Cancelled while the hooks ran: the call does not run, and nobody is asked about it.
  if (request.signal.aborted) return CANCELLED_BEFORE_RUN;
  const effective: GateRequest = pre ? { ...request, input: pre.input } : request;
  if (effective.tool.name === PLAN_APPROVAL_TOOL && pre?.verdict?.decision !== "deny")
    return approvePlan(options, effective, session);
  const judged = await judgeCall(session.state, effective);
  const ruled = judged.verdict;
  const confinement = await confinementOf(options, effective, judged, session);
  const verdict = decide({
    tool: effective.tool,
    input: effective.input,
    mode: session.state.modeId,
    ruled,
    ...defined({ hook: pre?.verdict, sandbox: sandboxAnswer(confinement) }),
  });
  const ruling: Ruling = (decision, why) =>
    session.record({
      kind: "permission_ruled",
      toolCallId: request.toolCallId,
      decision,
      rules: decision === ruled?.decision ? ruled.rules.map(decidingRule) : [],
      ...defined({ why }),
    });
  if (verdict.action === "deny") {
    if (verdict.by === "rule") await ruling("deny");
    return { run: false, by: verdict.by, reason: verdict.reason, modelText: verdict.modelText };
  }
  // Paths outside the session's directories: only the user (or a mode or hook that allows
  // everything) lets a call reach them, even a read.
  const outside = outsideDirectories(effective);
  const allowsAll = session.state.modeId === "bypassPermissions" || pre?.verdict?.decision === "allow";
  const allowed: Allowed = {
    run: true,
    input: effective.input,
    ...(outside.length ? { roots: outside } : {}),
    ...defined({ hidden: judged.hidden, sandbox: confinement }),
  };
  if (verdict.action === "allow" && (outside.length === 0 || allowsAll)) {
    if (ruled?.decision === "allow" && !allowsAll) await ruling("allow");
    return allowed;
  }
  return askAbout(options, effective, session, { judged, outside, allowed, ruling });
}

/** A command's OS sandbox (sandbox-confinement.ts); a sandboxed one asks on its card about the hosts it was blocked from. */
async function confinementOf(
  options: PermissionGateOptions,
  request: GateRequest,
  judged: JudgedCall,
  session: GateSession,
): Promise<Confinement | undefined> {
  if (request.tool.name !== SANDBOXED_TOOL) return undefined;
  const confined = await bashConfinement(session, request.input, judged.subject);
  return confined?.sandboxed
    ? { ...confined, askHosts: (hosts, signal) => askAboutHosts(options, request.toolCallId, hosts, session, signal) }
    : confined;
}

/** A call the policy asks about: PermissionRequest hooks may allow or deny first; only then is the user asked. */
async function askAbout(
  options: PermissionGateOptions,
  request: GateRequest,
  session: GateSession,
  { judged, outside, allowed, ruling }: { judged: JudgedCall; outside: string[]; allowed: Allowed; ruling: Ruling },
): Promise<GateDecision> {
  const hooks = session.hooks;
  const hooked = hooks ? await hooks.permissionRequest(request) : undefined;
  if (request.signal.aborted) return CANCELLED_BEFORE_RUN;
  if (hooked?.decision === "allow") return allowed;
  if (hooked?.decision === "deny") {
    const reason = hooked.reason ?? "a PermissionRequest hook refused the call";
    return {
      run: false,
      by: "hook",
      reason,
      modelText: hookRefusalText(request.tool, hooked.modelReason ?? reason),
    };
  }
  // The user is asked now: Notification hooks and the host hear of it while the question is open.
  const prompting = request.signal.aborted ? undefined : hooks?.permissionPrompt(request);
  try {
    await ruling("ask", askedWhy(judged.verdict, outside));
    const question = outside.length ? outsideQuestion(outside) : toolQuestion(request, judged);
    const decision = await askUser(options, request, session, question);
    return decision.run ? allowed : decision;
  } finally {
    await prompting;
  }
}

/** How a confined command is decided: unasked when the sandbox's auto-allow holds. */
const sandboxAnswer = (c: Confinement | undefined): "unasked" | "asks" | undefined =>
  c?.sandboxed ? (c.inForce.autoAllowBashIfSandboxed ? "unasked" : "asks") : undefined;

/** Why a call is asked about when no ask rule says so (undefined: no rule matched it). */
function askedWhy(ruled: RuleVerdict | undefined, outside: string[]): string | undefined {
  if (ruled?.decision === "ask" && "askAll" in ruled && ruled.askAll) return ruled.askAll;
  if (ruled?.decision === "ask" && "bad" in ruled && ruled.bad)
    return `the deny rule "${ruled.bad.text}" in ${ruled.bad.source.path} does not parse (${ruled.bad.reason})`;
  if (outside.length)
    return `${outside.join(", ")} ${outside.length === 1 ? "is" : "are"} outside the session's directories`;
  return undefined;
}

/**
 * A plan presented with ExitPlanMode (plan-approval.ts): the user chooses the mode to continue in,
 * which is recorded (a mode change) before the call runs; "keep planning" refuses the call.
 */
async function approvePlan(
  options: PermissionGateOptions,
  request: GateRequest,
  session: GateSession,
): Promise<GateDecision> {
  if (session.state.modeId !== "plan" || !session.setMode) return NOT_PLANNING;
  const setMode = session.setMode;
  const question: Question = {
    options: planApprovalOptions(session.state.availableModes.map((m) => m.id)),
    async remember(chosen) {
      if (chosen.kind === "allow_once" || chosen.kind === "allow_always") await setMode(chosen.optionId);
    },
  };
  const decision = await askUser(options, request, session, question);
  return !decision.run && decision.by === "user" && decision.reason === ""
    ? { ...decision, modelText: KEEP_PLANNING }
    : decision;
}

/** The directories of the call's paths that lie outside the request's roots. */
function outsideDirectories({ tool, input, roots }: GateRequest): string[] {
  const paths = tool
    .locations(input)
    .map((l) => l.path)
    .filter((path) => !isInside(path, roots));
  return [...new Set(paths.map(directoryOf))];
}
