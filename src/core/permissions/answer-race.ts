/**
 * One answer to a question asked of several clients: the writer's own, and the controllers
 * attached to the session from other processes (journal/answer-claims.ts). Each answer is a claim;
 * the first claim holds (the journal's compare-and-set), whoever made it. A controller's winning
 * claim withdraws the question from the writer's client (its request is cancelled).
 */
import type { AnswerClaim } from "../../journal/answer-claims.ts";
import type { JournalStore } from "../../journal/store.ts";
import type { AnsweredBy, PermissionOutcome } from "../../journal/facts/index.ts";
import { sleep } from "../../shared/sleep.ts";

/** How often the writer looks for another client's claim while its question is open. */
export const CLAIM_POLL_MS = 50;

/** The claims of one session's questions, as the writer's process sees them. */
export type AnswerClaims = {
  /** Claims `outcome` for the question; resolves with the claim that holds (this one, or one made first). */
  claim(requestId: string, outcome: PermissionOutcome): Promise<AnswerClaim>;
  /** The claim that holds for the question, if any. */
  held(requestId: string): Promise<AnswerClaim | undefined>;
  /** This process: its claims are its own client's answers. */
  self: AnsweredBy;
};

export type RacedAnswer = { outcome: PermissionOutcome; failure?: string; answeredBy?: AnsweredBy };

const isSelf = (by: AnsweredBy, self: AnsweredBy) => by.pid === self.pid && (by.host ?? "") === (self.host ?? "");

/**
 * The answer that holds for `requestId`: `askOwn` (the writer's client, asked with a signal that
 * aborts when another claim wins) claimed as soon as it answers, or another client's claim found
 * first. `signal` (the turn cancelled) ends the race with the own answer's cancellation, unclaimed.
 * `answeredBy` is set when the holding claim is another process's. A failure to read or write the
 * claims leaves the own client's answer.
 */
export async function racedAnswer(
  requestId: string,
  askOwn: (signal: AbortSignal) => Promise<{ outcome: PermissionOutcome; failure?: string }>,
  claims: AnswerClaims,
  signal: AbortSignal,
): Promise<RacedAnswer> {
  const withdrawn = new AbortController();
  const watching = new AbortController();
  const fromClaim = (claim: AnswerClaim): RacedAnswer =>
    isSelf(claim.by, claims.self) ? { outcome: claim.outcome } : { outcome: claim.outcome, answeredBy: claim.by };
  const own = askOwn(AbortSignal.any([signal, withdrawn.signal])).then(async (answer): Promise<RacedAnswer> => {
    if (signal.aborted || withdrawn.signal.aborted) return answer;
    const held = await claims.claim(requestId, answer.outcome).catch(() => undefined);
    return held
      ? { ...fromClaim(held), ...(answer.failure && isSelf(held.by, claims.self) ? { failure: answer.failure } : {}) }
      : answer;
  });
  const others = othersClaim(requestId, claims, watching.signal).then((claim) =>
    claim ? fromClaim(claim) : undefined,
  );
  try {
    const first = await Promise.race([own, others.then((answer) => answer ?? own)]);
    if (first.answeredBy) withdrawn.abort();
    return first;
  } finally {
    watching.abort();
  }
}

/** Another process's claim for the question once one is found; undefined once `signal` aborts. */
async function othersClaim(
  requestId: string,
  claims: AnswerClaims,
  signal: AbortSignal,
): Promise<AnswerClaim | undefined> {
  while (!signal.aborted) {
    await sleep(CLAIM_POLL_MS, signal);
    if (signal.aborted) return undefined;
    const held = await claims.held(requestId).catch(() => undefined);
    if (held && !isSelf(held.by, claims.self)) return held;
  }
  return undefined;
}

/** The claims of `sessionId`'s questions in `store`, made as `self`. */
export function journalClaims(
  store: Pick<JournalStore, "claimAnswer" | "answerClaimOf">,
  sessionId: string,
  self: AnsweredBy,
): AnswerClaims {
  return {
    self,
    claim: (requestId, outcome) =>
      store.claimAnswer(sessionId, { requestId, outcome, by: self, at: new Date().toISOString() }),
    held: (requestId) => store.answerClaimOf(sessionId, requestId),
  };
}
