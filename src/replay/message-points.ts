/**
 * Where each message a client was shown ends in the journal: the point a fork at that message,
 * or a rewind to it, keeps the records up to. A message's point is its last record, carried on
 * over the records right after it that show no entry of their own (the end of its step when the
 * step made no call, the usage that followed, the turn's end), so a fork at a turn's last answer
 * holds the whole turn as it was (the model is given the step with its provider data) and a fork
 * in the middle of a turn holds it open, as a process that stopped there left it. Messages a
 * client no longer shows (a refused turn's, those a rewind took back) have no point. Pure.
 */
import type { Fact, StoredFact } from "../journal/facts/index.ts";

export type MessageRole = "user" | "agent" | "thought";

/** A message's point: its role, and the last record a cut at it keeps. */
export type MessagePoint = { messageId: string; role: MessageRole; seq: number; startSeq: number };

export class MessagePoints {
  readonly #points = new Map<string, MessagePoint>();
  /** Messages whose point the last record carried on (a closer extends them further). */
  #chain: MessagePoint[] = [];
  /** Message ids of the turn under way, for a refusal that takes the turn back. */
  #turn: string[] = [];

  push({ fact, seq }: StoredFact): void {
    const shown = shownMessage(fact);
    if (shown) {
      const point = this.#points.get(shown.messageId);
      if (point) point.seq = seq;
      else {
        this.#points.set(shown.messageId, { ...shown, seq, startSeq: seq });
        this.#turn.push(shown.messageId);
      }
      this.#chain = [this.#points.get(shown.messageId) as MessagePoint];
      return;
    }
    if (fact.kind === "prompt_received") this.#turn = [];
    if (closes(fact)) for (const point of this.#chain) point.seq = seq;
    else this.#chain = [];
    if (fact.kind === "turn_ended" && fact.retracted) for (const id of this.#turn) this.#points.delete(id);
    if (fact.kind === "session_rewound") this.#retract(fact.toSeq);
  }

  /** The point of a message the client is shown, if any. */
  get(messageId: string): MessagePoint | undefined {
    return this.#points.get(messageId);
  }

  /** Every message the client is shown, in the order they first appeared (the map's: each is added at its first record). */
  all(): MessagePoint[] {
    return [...this.#points.values()];
  }

  /** A rewind kept records up to `toSeq`: every message that began after it is gone. */
  #retract(toSeq: number): void {
    for (const [id, point] of this.#points) if (point.startSeq > toSeq) this.#points.delete(id);
    for (const point of this.#points.values()) point.seq = Math.min(point.seq, toSeq);
    this.#chain = [];
    this.#turn = this.#turn.filter((id) => this.#points.has(id));
  }
}

/** The message a record shows, with its role. A notice the client may have been shown as an agent message counts as one. */
function shownMessage(fact: Fact): { messageId: string; role: MessageRole } | undefined {
  switch (fact.kind) {
    case "prompt_received":
    case "steering_received":
      return { messageId: fact.messageId, role: "user" };
    case "message_chunk":
      return { messageId: fact.messageId, role: fact.stream === "thought" ? "thought" : "agent" };
    case "notice_shown":
    case "context_given":
    case "instructions_loaded":
    case "command_activated":
      return { messageId: fact.messageId, role: "agent" };
    default:
      return undefined;
  }
}

/** A record that shows no entry and leaves nothing open for the model: a message's point goes over it. */
function closes(fact: Fact): boolean {
  switch (fact.kind) {
    case "step_ended":
      return fact.outcome !== "completed" || fact.calls.length === 0;
    case "usage_recorded":
    case "turn_ended":
      return !(fact.kind === "turn_ended" && fact.retracted);
    default:
      return false;
  }
}
