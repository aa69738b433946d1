/**
 * What a load shows for the calls a dead process left open: each marked interrupted (a job it
 * left running shown ended, as the `job_ended` its session records next shows it). Computed at
 * load when no live process holds the session; never written. Pure: the cards are copied, never
 * changed.
 */
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { contentAndMetaUpdate, interruptCard, isSettled, type Card } from "./card.ts";
import type { CardTable } from "./card-table.ts";
import * as jobCard from "./job-card.ts";

/** One update per card still open in `cards`, marking it interrupted. */
export function interruptionMarks(cards: CardTable): SessionUpdate[] {
  const marks: SessionUpdate[] = [];
  for (const card of cards.parsed()) {
    if (isSettled(card)) continue;
    const copy: Card = { ...card, meta: { ...card.meta }, notes: [...card.notes] };
    if (copy.job && !copy.job.ended) {
      copy.job = { ...copy.job };
      jobCard.jobEnded(copy, copy.job, {
        kind: "job_ended",
        jobId: copy.job.jobId,
        toolCallId: copy.toolCallId,
        by: "interrupted",
      });
      marks.push(contentAndMetaUpdate(copy, { status: copy.status }));
      continue;
    }
    marks.push(interruptCard(copy, copy.started));
  }
  return marks;
}
