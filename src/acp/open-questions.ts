/**
 * The questions a followed session has open, for a controller (src/protocol/extensions.ts): permission
 * questions and AskUserQuestion forms. Each is asked of the controller's client once it is open
 * and live (those open when the history ends, once the attach is answered), and withdrawn from it
 * (its request cancelled) as soon as the journal records an answer, whoever gave it. An observer
 * has none asked.
 */
import type { PermissionQuestion } from "../core/permissions/permission-gate.ts";
import type { QuestionForm } from "../core/tools/tool.ts";
import { formClaimKey } from "../journal/answer-claims.ts";
import type { StoredFact } from "../journal/facts/index.ts";

/** An open question, by its claim key (journal/answer-claims.ts). */
export type OpenQuestion =
  | { kind: "permission"; key: string; question: PermissionQuestion }
  | { kind: "form"; key: string; toolCallId: string; form: QuestionForm };

/** Asks the client `question`; `signal` aborts when the question is answered elsewhere or the following ends. */
export type AskQuestion = (question: OpenQuestion, signal: AbortSignal) => void;

export class OpenQuestions {
  readonly #open = new Map<string, { question: OpenQuestion; asked?: AbortController }>();

  constructor(private readonly ask: AskQuestion | undefined) {}

  /** Notes a record in journal order; with `live`, a question it opens is asked now. */
  note(record: StoredFact, live: boolean): void {
    const opened = openedBy(record);
    if (opened) {
      this.#open.set(opened.key, { question: opened });
      if (live) this.#askOf(opened.key);
      return;
    }
    const closed = closedBy(record);
    if (closed === undefined) return;
    this.#open.get(closed)?.asked?.abort();
    this.#open.delete(closed);
  }

  /** Asks every open question not asked yet (those the history left open). */
  askOpen(): void {
    for (const key of this.#open.keys()) this.#askOf(key);
  }

  /** Withdraws every question asked (the following ends, or the writer died with them open). */
  withdrawAll(): void {
    for (const entry of this.#open.values()) entry.asked?.abort();
    this.#open.clear();
  }

  #askOf(key: string): void {
    const entry = this.#open.get(key);
    if (!this.ask || !entry || entry.asked) return;
    entry.asked = new AbortController();
    this.ask(entry.question, entry.asked.signal);
  }
}

function openedBy({ fact }: StoredFact): OpenQuestion | undefined {
  if (fact.kind === "permission_requested") {
    const { requestId, toolCallId, options } = fact;
    return { kind: "permission", key: requestId, question: { requestId, toolCallId, options } };
  }
  if (fact.kind === "question_asked") {
    const { toolCallId, message, requestedSchema } = fact;
    return { kind: "form", key: formClaimKey(toolCallId), toolCallId, form: { message, requestedSchema } };
  }
  return undefined;
}

function closedBy({ fact }: StoredFact): string | undefined {
  if (fact.kind === "permission_answered") return fact.requestId;
  if (fact.kind === "question_answered") return formClaimKey(fact.toolCallId);
  return undefined;
}
