/**
 * The permission gate: decides each call by the policy and, when the policy says to ask, asks
 * the user through the client. The question is journaled before it is asked and the answer
 * before it is acted on; an "always" answer is journaled as a rule. An answer naming an option
 * that was not offered fails closed (recorded as given). A cancel while asking refuses the call;
 * so does a `cancelled` answer, which also ends the turn (ACP gives that outcome to a question the
 * user's cancel left open, whether or not the client's `session/cancel` has arrived yet). A client
 * that fails to answer (an error response, a dropped connection) refuses only the call, saying so.
 */
import type { PermissionOption } from "@agentclientprotocol/sdk";
import type { PermissionOutcome } from "../../journal/facts/index.ts";
import { mintId } from "../ids.ts";
import {
  CANCELLED_BEFORE_RUN,
  type CallGate,
  type GateDecision,
  type GateRequest,
  type GateSession,
} from "./call-gate.ts";
import { racedAnswer, type AnswerClaims, type ClaimCodec, type Raced } from "./answer-race.ts";
import { decide, hookRefusalText } from "./decide.ts";
import { decidingRule, judgeCall, type JudgedCall } from "./rules-in-force.ts";
import type { RuleVerdict } from "./rules/rule-set.ts";
import { isInside, directoryOf } from "../tools/paths.ts";
import { outsideOptions, permissionOptions, PROJECT_OPTION_ID, suggestedRules } from "./options.ts";
import { saveProjectRules } from "./project-rules.ts";
import { KEEP_PLANNING, NOT_PLANNING, PLAN_APPROVAL_TOOL, planApprovalOptions } from "./plan-approval.ts";
import { defined } from "../../shared/defined.ts";
import { bashConfinement, SANDBOXED_TOOL, type Confinement } from "./sandbox-confinement.ts";

export type PermissionQuestion = { requestId: string; toolCallId: string; options: PermissionOption[] };

/**
 * Asks the client and resolves with its answer as given. May reject (the client failed to
 * answer); the signal is aborted when the turn is cancelled while the question is open.
 */
export type PermissionAsker = (question: PermissionQuestion, signal: AbortSignal) => Promise<PermissionOutcome>;

/** `claims`: the session's answer claims, when other clients may answer its questions too (answer-race.ts). */
export type PermissionGateOptions = { ask: PermissionAsker; claims?: AnswerClaims };

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

/** A question: the options offered, and what an "always" answer leaves behind. */
type Question = {
  options: PermissionOption[];
  remember(
    chosen: PermissionOption,
    ids: { requestId: string; toolCallId: string },
    session: GateSession,
  ): Promise<void>;
};

function toolQuestion({ tool, input }: GateRequest, judged: JudgedCall): Question {
  const scope = tool.ruleScope?.(input);
  const rules = suggestedRules(tool, judged.subject);
  return {
    options: permissionOptions(tool, scope, rules, judged.trusted),
    async remember(chosen, ids, session) {
      if (chosen.kind === "reject_always" || (chosen.kind === "allow_always" && rules.length === 0)) {
        // This exact call, for the session (a command line that could not be read is only ever allowed as itself).
        await session.record({
          kind: "permission_rule_added",
          ...ids,
          toolName: tool.name,
          ...defined({ scope }),
          decision: chosen.kind === "allow_always" ? "allow" : "deny",
        });
        return;
      }
      if (chosen.kind !== "allow_always") return;
      const savedTo = chosen.optionId === PROJECT_OPTION_ID ? await saved(rules, session) : undefined;
      for (const rule of rules)
        await session.record({
          kind: "permission_rule_added",
          ...ids,
          toolName: tool.name,
          ...defined({ scope }),
          decision: "allow",
          rule,
          ...defined({ savedTo }),
        });
    },
  };
}

/** The project's local settings file the rules were written to, or undefined (with a notice saying why) when they could not be. */
async function saved(rules: readonly string[], session: GateSession): Promise<string | undefined> {
  try {
    return saveProjectRules(session.state.cwd, rules);
  } catch (error) {
    await session.record({
      kind: "notice_shown",
      messageId: mintId("msg"),
      severity: "warning",
      title: "The rule was kept for this session only",
      description: `It could not be saved for the project: ${error instanceof Error ? error.message : String(error)}`,
    });
    return undefined;
  }
}

function outsideQuestion(directories: string[]): Question {
  return {
    options: outsideOptions(directories),
    async remember(chosen, ids, session) {
      if (chosen.kind !== "allow_always") return;
      for (const directory of directories) await session.record({ kind: "access_granted", ...ids, directory });
    },
  };
}

async function askUser(
  gate: PermissionGateOptions,
  request: GateRequest,
  session: GateSession,
  question: Question,
): Promise<GateDecision> {
  const { tool, toolCallId, input, signal } = request;
  const { outcome, chosen, failure } = await askRecorded(gate, toolCallId, question.options, session, signal);
  const requestId = outcome.requestId;

  if (failure !== undefined && !signal.aborted) {
    return {
      run: false,
      by: "cancel",
      reason: `the client did not answer the permission question (${failure})`,
      modelText:
        "This call did not run: the permission question could not be put to the user (the editor failed to answer it).",
    };
  }
  if (signal.aborted || outcome.outcome === "cancelled") {
    return {
      run: false,
      by: "cancel",
      reason: "the permission question was cancelled",
      modelText: "This call did not run: the permission question was cancelled before the user allowed it.",
      // The client's own `cancelled`: the user cancelled the turn (a cancel already under way needs no second one).
      ...(signal.aborted ? {} : { endsTurn: true as const }),
    };
  }
  if (!chosen) {
    return {
      run: false,
      by: "user",
      reason: `the answer "${outcome.optionId}" was not one of the options offered`,
      modelText:
        "This call did not run: the permission answer was not one of the options offered, so it was treated as a refusal.",
    };
  }
  await question.remember(chosen, { requestId, toolCallId }, session);
  if (chosen.kind === "allow_once" || chosen.kind === "allow_always") return { run: true, input };
  return {
    run: false,
    by: "user",
    reason: "",
    modelText: `The user refused permission for this ${tool.name} call; it did not run. Do not retry it unchanged: ask the user what they want instead.`,
  };
}

/**
 * Asks `options` about the card `toolCallId`, recording the question before it is asked and the
 * answer as given: the option chosen, if it was one offered, and why the question could not be
 * asked, when it could not.
 */
async function askRecorded(
  { ask, claims }: PermissionGateOptions,
  toolCallId: string,
  options: PermissionOption[],
  session: GateSession,
  signal: AbortSignal,
): Promise<{ outcome: PermissionOutcome & { requestId: string }; chosen?: PermissionOption; failure?: string }> {
  const requestId = mintId("perm");
  await session.record({ kind: "permission_requested", requestId, toolCallId, options });
  const asked = { requestId, toolCallId, options };
  const { answer, answeredBy }: Raced<AskedOutcome> = claims
    ? await racedAnswer(requestId, (asking) => answerOf(ask, asked, asking), claims, signal, permissionClaims)
    : { answer: await answerOf(ask, asked, signal) };
  const given = answer.outcome;
  const chosen = given.outcome === "selected" ? options.find((o) => o.optionId === given.optionId) : undefined;
  // Recorded as given: the option id exactly as answered, with its kind only when it was offered.
  const outcome: PermissionOutcome =
    given.outcome === "selected"
      ? { outcome: "selected", optionId: given.optionId, ...defined({ kind: chosen?.kind }) }
      : { outcome: "cancelled" };
  await session.record({
    kind: "permission_answered",
    requestId,
    toolCallId,
    outcome,
    ...defined({ answeredBy, failure: answer.failure }),
  });
  return { outcome: { ...outcome, requestId }, ...defined({ chosen, failure: answer.failure }) };
}

/**
 * Hosts the sandbox blocked for a command that has run, put to the user on its card: "always"
 * records a `WebFetch(domain:…)` allow rule per host, which later commands' network allowlist and
 * WebFetch honour; the command itself is not run again (the model is told it may retry).
 */
async function askAboutHosts(
  gate: PermissionGateOptions,
  toolCallId: string,
  hosts: string[],
  session: GateSession,
  signal: AbortSignal,
): Promise<string[]> {
  const named = hosts.join(", ");
  const options: PermissionOption[] = [
    { optionId: "allow_hosts_always", name: `Allow ${named} for this session's commands`, kind: "allow_always" },
    { optionId: "keep_blocked", name: "Keep blocked", kind: "reject_once" },
  ];
  const { outcome, chosen } = await askRecorded(gate, toolCallId, options, session, signal);
  if (chosen?.kind !== "allow_always") return [];
  for (const host of hosts)
    await session.record({
      kind: "permission_rule_added",
      requestId: outcome.requestId,
      toolCallId,
      toolName: "WebFetch",
      decision: "allow",
      rule: `WebFetch(domain:${host})`,
    });
  return hosts;
}

/** Whether the user let a card that is no tool call (a file restore) go ahead, and if not, why. */
export type CardQuestion = (
  toolCallId: string,
  session: GateSession,
  signal: AbortSignal,
) => Promise<{ allowed: true } | { allowed: false; reason: string }>;

/**
 * Asks about a card that is no model's call (a rewind's file restore): allow or refuse, once (an
 * "always" would be a rule for a tool, and this is none), recorded as a tool's question is.
 */
export function cardQuestion(gate: PermissionGateOptions): CardQuestion {
  const options: PermissionOption[] = [
    { optionId: "allow_once", name: "Allow", kind: "allow_once" },
    { optionId: "reject_once", name: "Refuse", kind: "reject_once" },
  ];
  return async (toolCallId, session, signal) => {
    const { outcome, chosen, failure } = await askRecorded(gate, toolCallId, options, session, signal);
    if (chosen?.kind === "allow_once") return { allowed: true };
    if (outcome.outcome === "cancelled")
      return {
        allowed: false,
        reason: failure
          ? `the permission question could not be asked (${failure})`
          : "the permission question was cancelled",
      };
    return {
      allowed: false,
      reason: chosen ? "the user refused it" : `the answer "${outcome.optionId}" was not one of the options offered`,
    };
  };
}

/** A permission question's answer: the outcome, and why it could not be asked when it could not. */
type AskedOutcome = { outcome: PermissionOutcome; failure?: string };

const permissionClaims: ClaimCodec<AskedOutcome> = {
  toClaim: ({ outcome }) => ({ kind: "permission", outcome }),
  fromClaim: (claimed) => (claimed.kind === "permission" ? { outcome: claimed.outcome } : undefined),
};

/** The client's answer, or `cancelled` when the turn is cancelled first or the client fails to answer. */
async function answerOf(
  ask: PermissionAsker,
  question: PermissionQuestion,
  signal: AbortSignal,
): Promise<AskedOutcome> {
  if (signal.aborted) return { outcome: { outcome: "cancelled" } };
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<{ outcome: PermissionOutcome }>((resolve) => {
    onAbort = () => resolve({ outcome: { outcome: "cancelled" } });
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([
      ask(question, signal).then(
        (outcome) => ({ outcome }),
        (error: unknown) => ({
          outcome: { outcome: "cancelled" as const },
          ...(signal.aborted ? {} : { failure: error instanceof Error ? error.message : String(error) }),
        }),
      ),
      aborted,
    ]);
  } finally {
    if (onAbort) signal.removeEventListener("abort", onAbort);
  }
}
