/**
 * One answer to a question asked of several clients: the writer's own, and the controllers
 * attached to the session from other processes (journal/answer-claims.ts). Each answer is a claim;
 * the first claim holds (the journal's compare-and-set), whoever made it. A controller's winning
 * claim withdraws the question from the writer's client (its request is cancelled).
 */
import type { AnswerClaim, ClaimedAnswer } from "../../journal/answer-claims.ts";
import type { ControllerStore } from "../../journal/store.ts";
import type { AnsweredBy } from "../../journal/facts/index.ts";
import { sameProcess } from "../../journal/process-identity.ts";
import { SessionChanges, type JournalWatch } from "../../journal/journal-watch.ts";

/** The claims of one session's questions, as the writer's process sees them. */
export type AnswerClaims = {
  /** Claims `answer` for the question; resolves with the claim that holds (this one, or one made first). */
  claim(requestId: string, answer: ClaimedAnswer): Promise<AnswerClaim>;
  /** The claim that holds for the question, if any. */
  held(requestId: string): Promise<AnswerClaim | undefined>;
  /** The session's changes (journal/journal-watch.ts): a claim is looked for when rows beside the facts change. */
  changes(): SessionChanges;
  /** This process: its claims are its own client's answers. */
  self: AnsweredBy;
};

/** How one kind of answer is claimed: as a claim's answer, and back (undefined: a claim of another kind). */
export type ClaimCodec<A> = { toClaim(answer: A): ClaimedAnswer; fromClaim(claimed: ClaimedAnswer): A | undefined };

export type Raced<A> = { answer: A; answeredBy?: AnsweredBy };

const isSelf = (by: AnsweredBy, self: AnsweredBy) => sameProcess(by, self);

/**
 * The answer that holds for `requestId`: `askOwn` (the writer's client, asked with a signal that
 * aborts when another claim wins) claimed as soon as it answers, or another client's claim found
 * first. `signal` (the turn cancelled) ends the race with the own answer's cancellation, unclaimed.
 * `answeredBy` is set when the holding claim is another process's. A failure to read or write the
 * claims, or a claim of another kind, leaves the own client's answer.
 */
export async function racedAnswer<A>(
  requestId: string,
  askOwn: (signal: AbortSignal) => Promise<A>,
  claims: AnswerClaims,
  signal: AbortSignal,
  codec: ClaimCodec<A>,
): Promise<Raced<A>> {
  const withdrawn = new AbortController();
  const watching = new AbortController();
  const fromOther = (claim: AnswerClaim): Raced<A> | undefined => {
    const answer = codec.fromClaim(claim.answer);
    return answer === undefined ? undefined : { answer, answeredBy: claim.by };
  };
  const own = askOwn(AbortSignal.any([signal, withdrawn.signal])).then(async (answer): Promise<Raced<A>> => {
    if (signal.aborted || withdrawn.signal.aborted) return { answer };
    const held = await claims.claim(requestId, codec.toClaim(answer)).catch(() => undefined);
    if (!held || isSelf(held.by, claims.self)) return { answer };
    return fromOther(held) ?? { answer };
  });
  // Once another claim won, the own client's withdrawn question may still fail: nobody waits for it.
  own.catch(() => undefined);
  const others = othersClaim(requestId, claims, watching.signal, (claim) => fromOther(claim) !== undefined).then(
    (claim) => (claim ? fromOther(claim) : undefined),
  );
  try {
    const first = await Promise.race([own, others.then((raced) => raced ?? own)]);
    if (first.answeredBy) withdrawn.abort();
    return first;
  } finally {
    watching.abort();
  }
}

/** Another process's claim for the question (one `fits`) once one is found; undefined once `signal` aborts. */
async function othersClaim(
  requestId: string,
  claims: AnswerClaims,
  signal: AbortSignal,
  fits: (claim: AnswerClaim) => boolean,
): Promise<AnswerClaim | undefined> {
  using changes = claims.changes();
  while (!signal.aborted) {
    await changes.next(signal, undefined, "rows");
    if (signal.aborted) return undefined;
    const held = await claims.held(requestId).catch(() => undefined);
    if (held && !isSelf(held.by, claims.self) && fits(held)) return held;
  }
  return undefined;
}

/** The claims of `sessionId`'s questions in `store`, made as `self`. */
export function journalClaims(
  store: ControllerStore & JournalWatch,
  sessionId: string,
  self: AnsweredBy,
): AnswerClaims {
  return {
    self,
    changes: () => new SessionChanges(store, sessionId),
    claim: (requestId, answer) =>
      store.claimAnswer(sessionId, { requestId, answer, by: self, at: new Date().toISOString() }),
    held: (requestId) => store.answerClaimOf(sessionId, requestId),
  };
}
