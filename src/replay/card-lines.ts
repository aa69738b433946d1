/** The visible lines verbatim adds to a card. Pure text, recorded facts in, no clock. */
import type { PermissionOption } from "@agentclientprotocol/sdk";
import type { AnsweredBy, FactOf, PermissionOutcome, QuestionAnswered } from "../journal/facts/index.ts";

const kindWords: Record<PermissionOption["kind"], string> = {
  allow_once: "allowed once",
  allow_always: "always allowed",
  reject_once: "refused",
  reject_always: "always refused",
};

/** `failure`: the client's request failed instead of answering (permission_answered's `failure`). */
export function permissionLine(
  options: PermissionOption[],
  outcome: PermissionOutcome,
  by?: AnsweredBy,
  failure?: string,
): string {
  const where = by ? ` Answered from another client (${answererWords(by)}).` : "";
  if (failure !== undefined) return `Permission: not answered: the client's request failed (${failure}).${where}`;
  if (outcome.outcome === "cancelled") return `Permission: the question was cancelled.${where}`;
  const option = options.find((o) => o.optionId === outcome.optionId);
  if (!option)
    return `Permission: answered with "${outcome.optionId}", which was not offered; treated as refused.${where}`;
  return `Permission: ${option.name} (${kindWords[option.kind]}).${where}`;
}

/** "zed, pid 4242 on build-box": the client that answered, as recorded. */
function answererWords(by: AnsweredBy): string {
  return `${by.client ? `${by.client}, ` : ""}pid ${by.pid}${by.host ? ` on ${by.host}` : ""}`;
}

type RefusedBy = FactOf<"tool_call_refused">["by"];

const refusedBy: Record<RefusedBy, string> = {
  user: "refused by the user",
  hook: "blocked by a hook",
  mode: "not allowed in this mode",
  cancel: "cancelled before it ran",
  rule: "refused by a saved permission rule",
};

export function refusalLine(by: RefusedBy, reason: string): string {
  return `Not run: ${refusedBy[by]}${reason ? ` — ${reason}` : ""}.`;
}

/** Which rules decided a call, as its line names them (file and text), or that none did. */
export function ruleLine(fact: FactOf<"permission_ruled">): string {
  const named = fact.rules.map(ruleWords).join("; ");
  if (fact.decision === "allow") return `Allowed by rule ${named}.`;
  if (fact.decision === "deny") return `Refused by rule ${named}.`;
  if (fact.why !== undefined) return `Asked: ${fact.why}.`;
  return fact.rules.length ? `Asked by rule ${named}.` : "Asked: no rule.";
}

const ruleWords = (rule: FactOf<"permission_ruled">["rules"][number]) =>
  rule.path === undefined ? `${rule.text} (this session)` : `${rule.text} (${rule.scope}: ${rule.path})`;

/** The question a card asked, as its line shows it. */
export const questionLine = (message: string): string => `Question: ${message}`;

/**
 * How the question was answered: each field's title with what was chosen or typed (in the form's
 * order), or why there is no answer.
 */
export function answerLine(requestedSchema: Record<string, unknown>, answer: QuestionAnswered): string {
  const line = answerWords(requestedSchema, answer);
  return answer.answeredBy ? `${line} Answered from another client (${answererWords(answer.answeredBy)}).` : line;
}

function answerWords(requestedSchema: Record<string, unknown>, answer: QuestionAnswered): string {
  // A decline with an error: the client's answer did not fit the form (it counts as declined).
  if (answer.action === "decline") return `Not answered: ${answer.error ?? "the user declined"}.`;
  if (answer.error !== undefined) return `Not answered: the client could not ask (${answer.error}).`;
  if (answer.action === "cancel")
    return answer.cancelledBy === "turn"
      ? "Not answered: the turn was cancelled."
      : "Not answered: the user dismissed the question.";
  const properties = (requestedSchema.properties ?? {}) as Record<string, { title?: unknown }>;
  const content = answer.content ?? {};
  const parts = Object.keys(properties)
    .filter(
      (key) =>
        content[key] !== undefined &&
        content[key] !== "" &&
        !(Array.isArray(content[key]) && (content[key] as unknown[]).length === 0),
    )
    .map((key) => {
      const value = content[key];
      const shown = Array.isArray(value) ? value.map(String).join(", ") : String(value);
      const title = properties[key]?.title;
      return `${typeof title === "string" ? title : key}: ${shown}`;
    });
  return parts.length ? `Answered: ${parts.join("; ")}.` : "Answered: nothing chosen.";
}
