/**
 * The permission gate's questions (permission-gate.ts decides when to ask): what a question offers
 * and what an "always" answer leaves behind, asking it journaled (the question before it is
 * asked, the answer before it is acted on), the race with other clients' answers, and the
 * questions about a card that is no tool call (a file restore) and about the hosts a sandboxed
 * command was blocked from.
 */
import type { PermissionOption } from "@agentclientprotocol/sdk";
import type { PermissionOutcome } from "../../journal/facts/index.ts";
import { mintId } from "../ids.ts";
import type { GateDecision, GateRequest, GateSession } from "./call-gate.ts";
import { racedAnswer, type AnswerClaims, type ClaimCodec, type Raced } from "./answer-race.ts";
import type { JudgedCall } from "./rules-in-force.ts";
import { outsideOptions, permissionOptions, PROJECT_OPTION_ID, suggestedRules } from "./options.ts";
import { saveProjectRules } from "./project-rules.ts";
import { defined } from "../../shared/defined.ts";

export type PermissionQuestion = { requestId: string; toolCallId: string; options: PermissionOption[] };

/**
 * Asks the client and resolves with its answer as given. May reject (the client failed to
 * answer); the signal is aborted when the turn is cancelled while the question is open.
 */
export type PermissionAsker = (question: PermissionQuestion, signal: AbortSignal) => Promise<PermissionOutcome>;

/** `claims`: the session's answer claims, when other clients may answer its questions too (answer-race.ts). */
export type PermissionGateOptions = { ask: PermissionAsker; claims?: AnswerClaims };

/** A question: the options offered, and what an "always" answer leaves behind. */
export type Question = {
  options: PermissionOption[];
  remember(
    chosen: PermissionOption,
    ids: { requestId: string; toolCallId: string },
    session: GateSession,
  ): Promise<void>;
};

export function toolQuestion({ tool, input }: GateRequest, judged: JudgedCall): Question {
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

export function outsideQuestion(directories: string[]): Question {
  return {
    options: outsideOptions(directories),
    async remember(chosen, ids, session) {
      if (chosen.kind !== "allow_always") return;
      for (const directory of directories) await session.record({ kind: "access_granted", ...ids, directory });
    },
  };
}

export async function askUser(
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
export async function askAboutHosts(
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
