/**
 * How a turn ended, when it did not simply end: shown to the client as a `session_info_update`
 * that carries no title and no time, only `_meta.verbatim.turnEnded` (so a client that does not
 * read it shows nothing), projected from the recorded `turn_ended` (cancelled, failed with its
 * error, or stopped by a limit) and from `session_recovered` for a turn a dead process left open.
 * A load marks such a turn the same way, computed then and never written, when the journal ends
 * inside it and no live process holds the session. A refused turn has none: a reload leaves the
 * whole turn out. Pure.
 */
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { FactOf } from "../journal/facts/index.ts";

export type TurnEnding = "cancelled" | "failed" | "max_tokens" | "max_turn_requests" | "interrupted";

/** What `_meta.verbatim.turnEnded` holds: the turn, how it ended, and a failure's recorded error. */
export type TurnEnded = { turnId: string; ending: TurnEnding; error?: string };

/** The update that shows how a turn ended. */
export function turnEndUpdate(ended: TurnEnded): SessionUpdate {
  return { sessionUpdate: "session_info_update", _meta: { verbatim: { turnEnded: ended } } };
}

/** How a recorded turn end is shown: nothing for a turn that ended as asked (`end_turn`) or was refused. */
export function turnEndedOf(fact: FactOf<"turn_ended">): TurnEnded | undefined {
  if (fact.outcome === "failed")
    return { turnId: fact.turnId, ending: "failed", ...(fact.error !== undefined ? { error: fact.error } : {}) };
  const reason = fact.stopReason;
  if (reason === "cancelled" || reason === "max_tokens" || reason === "max_turn_requests")
    return { turnId: fact.turnId, ending: reason };
  return undefined;
}

/** Whether an update is a turn's end (an entry of the conversation, which a rewind takes back with its turn). */
export const isTurnEnd = (update: SessionUpdate): boolean =>
  update.sessionUpdate === "session_info_update" &&
  (update._meta?.verbatim as { turnEnded?: unknown } | undefined)?.turnEnded !== undefined;
