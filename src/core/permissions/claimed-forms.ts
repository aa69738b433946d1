/**
 * AskUserQuestion's form answered from any controller (journal/answer-claims.ts): the writer's
 * client is asked as before, and the first answer from any client holds; the writer's client's
 * form is withdrawn when a controller's answer wins. The answer is checked against the form as
 * any answer is (execute-calls.ts).
 */
import { formClaimKey } from "../../journal/answer-claims.ts";
import { racedAnswer, type AnswerClaims, type ClaimCodec } from "./answer-race.ts";
import type { FormAnswer, HeldFormAnswer, ToolHost } from "../tools/tool.ts";

const formClaims: ClaimCodec<FormAnswer> = {
  toClaim: (answer) => ({ kind: "form", ...answer }),
  fromClaim: (claimed) => {
    if (claimed.kind !== "form") return undefined;
    if (claimed.action === "accept") return { action: "accept", content: claimed.content ?? {} };
    return { action: claimed.action };
  },
};

/** `host`, its forms raced against other clients' claims (`host` itself when there are no claims or no forms). */
export function withClaimedForms(host: ToolHost, claims: AnswerClaims | undefined): ToolHost {
  const askForm = host.askForm?.bind(host);
  if (!claims || !askForm) return host;
  return {
    ...host,
    askForm: async (form, signal): Promise<HeldFormAnswer> => {
      const own = (asking: AbortSignal): Promise<FormAnswer> => askForm(form, asking);
      const { answer, answeredBy } = await racedAnswer(formClaimKey(form.toolCallId), own, claims, signal, formClaims);
      return answeredBy ? { ...answer, answeredBy } : answer;
    },
  };
}
