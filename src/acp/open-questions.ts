/**
 * The permission questions a followed session has open, for a controller (attach-params.ts): each
 * is asked of the controller's client once it is open and live (those open when the history ends,
 * once the attach is answered), and withdrawn from it (its request cancelled) as soon as the
 * journal records an answer, whoever gave it. An observer has none asked.
 */
import type { PermissionQuestion } from "../core/permissions/permission-gate.ts";
import type { StoredFact } from "../journal/facts/index.ts";

/** Asks the client `question`; `signal` aborts when the question is answered elsewhere or the following ends. */
export type AskQuestion = (question: PermissionQuestion, signal: AbortSignal) => void;

export class OpenQuestions {
  readonly #open = new Map<string, { question: PermissionQuestion; asked?: AbortController }>();

  constructor(private readonly ask: AskQuestion | undefined) {}

  /** Notes a record in journal order; with `live`, a question it opens is asked now. */
  note(record: StoredFact, live: boolean): void {
    const { fact } = record;
    if (fact.kind === "permission_requested") {
      const { requestId, toolCallId, options } = fact;
      this.#open.set(requestId, { question: { requestId, toolCallId, options } });
      if (live) this.#askOf(requestId);
    } else if (fact.kind === "permission_answered") {
      this.#open.get(fact.requestId)?.asked?.abort();
      this.#open.delete(fact.requestId);
    }
  }

  /** Asks every open question not asked yet (those the history left open). */
  askOpen(): void {
    for (const requestId of this.#open.keys()) this.#askOf(requestId);
  }

  /** Withdraws every question asked (the following ends, or the writer died with them open). */
  withdrawAll(): void {
    for (const entry of this.#open.values()) entry.asked?.abort();
    this.#open.clear();
  }

  #askOf(requestId: string): void {
    const entry = this.#open.get(requestId);
    if (!this.ask || !entry || entry.asked) return;
    entry.asked = new AbortController();
    this.ask(entry.question, entry.asked.signal);
  }
}
