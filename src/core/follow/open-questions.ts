/**
 * The questions a followed session has open, asked of a controller (permission questions and
 * AskUserQuestion forms): which are open is the session's state fold's (replay/state.ts
 * `openQuestions`); this asks each once it is open and live (those open when the history ends,
 * once the attach is answered), and withdraws it (`signal` aborts) as soon as the journal records
 * an answer, whoever gave it. An observer has none asked.
 */
import { formClaimKey } from "../../journal/answer-claims.ts";
import type { QuestionOpen } from "../../replay/state-parts.ts";
import type { SessionStateFold } from "../../replay/state.ts";
import type { PermissionQuestion } from "../permissions/permission-questions.ts";
import type { QuestionForm } from "../tools/tool.ts";

/** An open question, by its claim key (journal/answer-claims.ts). */
export type OpenQuestion =
  | { kind: "permission"; key: string; question: PermissionQuestion }
  | { kind: "form"; key: string; toolCallId: string; form: QuestionForm };

/** Asks the client `question`; `signal` aborts when the question is answered elsewhere or the following ends. */
export type AskQuestion = (question: OpenQuestion, signal: AbortSignal) => void;

export class OpenQuestions {
  /** The questions asked (or withdrawn before they were), by their key in the fold. */
  readonly #asked = new Map<string, AbortController>();

  constructor(
    private readonly state: SessionStateFold,
    private readonly ask: AskQuestion | undefined,
  ) {}

  /** After a live record is folded: withdraws the questions it answered, asks those it opened. */
  sync(): void {
    for (const [key, asked] of this.#asked) {
      if (this.state.openQuestions.has(key)) continue;
      asked.abort();
      this.#asked.delete(key);
    }
    this.askOpen();
  }

  /** Asks every open question not asked yet (those the history left open). */
  askOpen(): void {
    if (!this.ask) return;
    for (const [key, open] of this.state.openQuestions) {
      if (this.#asked.has(key)) continue;
      const asked = new AbortController();
      this.#asked.set(key, asked);
      this.ask(asking(open), asked.signal);
    }
  }

  /** Withdraws every open question, and asks none of them again (the following ends, or the writer died with them open). */
  withdrawAll(): void {
    for (const key of this.state.openQuestions.keys())
      if (!this.#asked.has(key)) this.#asked.set(key, new AbortController());
    for (const asked of this.#asked.values()) asked.abort();
  }
}

function asking(open: QuestionOpen): OpenQuestion {
  if (open.kind === "permission") {
    const { requestId, toolCallId, options } = open;
    return { kind: "permission", key: requestId, question: { requestId, toolCallId, options } };
  }
  const { toolCallId, message, requestedSchema } = open;
  return { kind: "form", key: formClaimKey(toolCallId), toolCallId, form: { message, requestedSchema } };
}
