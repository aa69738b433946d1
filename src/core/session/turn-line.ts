/**
 * The one turn a session runs at a time, and the prompts waiting for it, in order. Whatever
 * starts a turn takes the line (a client's `session/prompt`, a controller's prompt from the
 * session's inbox, a steering text that starts a turn); a cancel stops the running turn and
 * empties the line, so none of the prompts waiting in it runs. The line is bounded: a prompt
 * that finds it full is refused rather than kept without limit.
 */
import { EngineError } from "../errors.ts";

/** How many prompts may wait behind the running turn. */
export const MAX_QUEUED_PROMPTS = 16;

type Waiter = (granted: AbortController | undefined) => void;

export class TurnLine {
  /** The running turn's cancel switch: set while a turn holds the line. */
  #holder: AbortController | undefined;
  readonly #waiting: Waiter[] = [];

  constructor(
    private readonly sessionId: string,
    readonly bound: number = MAX_QUEUED_PROMPTS,
  ) {}

  /** Whether a turn holds the line (running, or handed the line and about to start). */
  get busy(): boolean {
    return this.#holder !== undefined;
  }

  /** How many prompts wait behind the running turn. */
  get queued(): number {
    return this.#waiting.length;
  }

  /** Whether another prompt would be let into the line now. */
  get hasRoom(): boolean {
    return this.#holder === undefined || this.#waiting.length < this.bound;
  }

  /**
   * Takes the line: at once when it is free, else once every turn ahead has ended (`front`: ahead
   * of the prompts already waiting, and never refused: for a turn from a text already accepted). Resolves with the turn's cancel switch, created when the
   * line is handed over (so a cancel at any moment after reaches it), or undefined when a cancel
   * emptied the line first. Throws EngineError `queue_full` when `bound` prompts already wait.
   * The holder must `release` once its turn has ended.
   */
  take(options: { front?: boolean } = {}): Promise<AbortController | undefined> {
    if (this.#holder === undefined) {
      this.#holder = new AbortController();
      return Promise.resolve(this.#holder);
    }
    if (!options.front && this.#waiting.length >= this.bound)
      throw new EngineError(
        "queue_full",
        `session ${this.sessionId} already has ${this.bound} prompts waiting behind its running turn; wait for some to run, or cancel`,
        { sessionId: this.sessionId, queued: this.#waiting.length },
      );
    return new Promise((resolve) => {
      if (options.front) this.#waiting.unshift(resolve);
      else this.#waiting.push(resolve);
    });
  }

  /** The holder's turn has ended: the line goes to the first waiting prompt, or is free. */
  release(): void {
    const next = this.#waiting.shift();
    this.#holder = next ? new AbortController() : undefined;
    next?.(this.#holder);
  }

  /** Cancels the running turn and empties the line: every waiting prompt is told it was cancelled. */
  cancel(): void {
    this.#holder?.abort();
    for (const waiter of this.#waiting.splice(0)) waiter(undefined);
  }
}
