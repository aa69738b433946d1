/**
 * Journal writes started without waiting (progress a tool reports while it runs, a subagent's
 * progress on its parent's card), waited for together before what follows them is recorded, so
 * that a failed write is never lost. Each write is in line at once (the journal writer keeps the
 * order); waiting only collects the outcome.
 */
const ignore = () => undefined;

export class PendingWrites {
  #writes: Promise<void>[] = [];

  add(write: Promise<void>): void {
    // Handled here, so a failure waits for `settled` instead of being reported as unhandled.
    write.catch(ignore);
    this.#writes.push(write);
  }

  /** Waits for every write added so far; rejects with the first failure. */
  async settled(): Promise<void> {
    await Promise.all(this.#writes.splice(0));
  }
}
