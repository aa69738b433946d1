/**
 * What a session in this process folds from its records as they are appended (or read at a
 * restore): its state (replay/state.ts), the model's conversation, and the index of the messages
 * and calls a client is shown (a rewind finds its point there: rewind.ts).
 */
import type { RetractedRange, StoredFact } from "../../journal/facts/index.ts";
import type { JournalStore } from "../../journal/store.ts";
import { ConversationFold } from "../../replay/conversation.ts";
import { isRetracted } from "../../replay/retraction.ts";
import { SessionStateFold } from "../../replay/state.ts";
import { Located } from "./rewind-index.ts";
import type { StoredFold } from "./stored-fold.ts";

export class SessionFolds {
  /** In place for the session's life: its turn, tooling and hooks hold it. */
  readonly state = new SessionStateFold();
  /** Undefined until the session needs it: then folded from the journal (`conversation`). */
  #conversation: ConversationFold | undefined;
  /** Undefined when the records before a restored state were not read. */
  #messages: Located | undefined = new Located();

  constructor(
    private readonly store: Pick<JournalStore, "readPages">,
    private readonly sessionId: string,
  ) {}

  /** A new session: its conversation starts empty, not read from the journal. */
  started(): void {
    this.#conversation = new ConversationFold();
  }

  /** A restored session continues from what its restore folded (stored-fold.ts); its conversation is folded when first needed. */
  adopt(fold: StoredFold): void {
    // In place: the turn, the tooling and the hooks hold `state`.
    Object.assign(this.state, fold.state);
    this.#messages = fold.messages;
  }

  /** Folds one record, in journal order. */
  absorb(record: StoredFact): void {
    this.state.apply(record.fact, record.seq);
    this.#messages?.push(record);
    // A rewind takes back what the model was given: its context is folded again from the journal when next needed.
    if (record.fact.kind === "session_rewound") this.#conversation = undefined;
    else this.#conversation?.apply(record.fact);
  }

  /**
   * Forgets everything folded, to fold it again from the journal (its server lost appends this
   * process had made). In place: the turn, the tooling and the hooks hold `state`.
   */
  forget(): void {
    Object.assign(this.state, new SessionStateFold());
    this.#conversation = undefined;
    this.#messages = new Located();
  }

  /** The model's context: folded from the journal the first time a restored session needs it (call it between writes). */
  async conversation(): Promise<ConversationFold> {
    // What the session's rewinds took back never reaches the model (the state knows it before the read).
    this.#conversation ??= await readConversation(this.store, this.sessionId, this.state.retracted ?? []);
    return this.#conversation;
  }

  /** The session's messages and calls as folded from record 1, if they were. */
  get messages(): Located | undefined {
    return this.#messages;
  }
}

/** Folds every record of the session but those its rewinds took back (`rewound`): those never reach the model. */
async function readConversation(
  store: Pick<JournalStore, "readPages">,
  sessionId: string,
  rewound: readonly RetractedRange[],
): Promise<ConversationFold> {
  const fold = new ConversationFold();
  for await (const page of store.readPages(sessionId))
    for (const { fact, seq } of page) if (!isRetracted(rewound, seq)) fold.apply(fact);
  return fold;
}
