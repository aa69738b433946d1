/**
 * Opening and closing one session, one request at a time. A load replays for a while, waiting
 * for the client between records; a second load, a resume, a close or a delete of the same
 * session arriving meanwhile would otherwise open a second runtime from the same journal state
 * (whose next append is refused as stale) or close the one a prompt is running on. Requests on
 * different sessions never wait for each other.
 */
export class SessionQueue {
  readonly #tails = new Map<string, Promise<void>>();

  /** Runs `task` once every earlier task on `sessionId` has settled; settles as `task` does. */
  run<T>(sessionId: string, task: () => Promise<T>): Promise<T> {
    const result = this.settled(sessionId).then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.#tails.set(sessionId, tail);
    void tail.then(() => {
      if (this.#tails.get(sessionId) === tail) this.#tails.delete(sessionId);
    });
    return result;
  }

  /** Resolves once no task on `sessionId` is queued or running (at once when none is). */
  settled(sessionId: string): Promise<void> {
    return this.#tails.get(sessionId) ?? Promise.resolve();
  }
}
