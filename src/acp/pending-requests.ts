/**
 * What is still owed when the client closes its end: the requests it sent that have no answer
 * yet. On end of input the connection stays open until each is answered (a client may write its
 * requests and close stdin at once, as `echo … | verbatim` does), unless an answer waits on the
 * client itself (a request verbatim sent it is still open): that can never come, so the
 * connection closes at once.
 */
type Id = string | number | null;
type Envelope = { id?: unknown; method?: unknown };

const idOf = (message: Envelope): Id | undefined => {
  const id = message.id;
  return id === null || typeof id === "string" || typeof id === "number" ? id : undefined;
};

export class PendingRequests {
  /** Requests received and not answered, by id (a client may reuse an id). */
  readonly #owed = new Map<Id, number>();
  /** Requests sent to the client and not answered. */
  readonly #asked = new Set<Id>();
  #ended: (() => void) | undefined;

  /** A message from the client. */
  received(message: Envelope): void {
    const id = idOf(message);
    if (!("id" in message) || id === undefined) return;
    if (typeof message.method === "string") this.#owed.set(id, (this.#owed.get(id) ?? 0) + 1);
    else this.#asked.delete(id);
  }

  /** A message to the client. */
  sent(message: Envelope): void {
    const id = idOf(message);
    if (!("id" in message) || id === undefined) return;
    if (typeof message.method === "string") this.#asked.add(id);
    else {
      const n = this.#owed.get(id);
      if (n !== undefined) {
        if (n > 1) this.#owed.set(id, n - 1);
        else this.#owed.delete(id);
      }
    }
    this.#check();
  }

  /** Resolves once nothing more can be answered: every request answered, or one waits on the client. */
  drained(): Promise<void> {
    return new Promise((resolve) => {
      this.#ended = resolve;
      this.#check();
    });
  }

  #check(): void {
    if (this.#ended && (this.#owed.size === 0 || this.#asked.size > 0)) {
      const done = this.#ended;
      this.#ended = undefined;
      done();
    }
  }
}
