/**
 * Lifecycle notifications to a host (an editor or terminal showing "busy / needs you / done"),
 * separate from the user's gating hooks. One notifier per session: events are delivered in order
 * by one worker, through a bounded queue that drops the oldest event when the host's command
 * stalls. `emit` never waits, so a stalled command never slows the agent loop. `close` abandons
 * what is queued, stops the delivery in flight and waits for the worker: once it resolves,
 * nothing from this session is delivered again (so nothing crosses into a successor).
 */
import { log } from "../../../shared/log.ts";

/** Delivers one event; must settle soon after `signal` aborts. */
export type Deliver = (payload: string, signal: AbortSignal) => Promise<void>;

const QUEUE_CAPACITY = 16;

export class LifecycleNotifier {
  readonly #queue: string[] = [];
  readonly #capacity: number;
  #closed = false;
  #inFlight: AbortController | undefined;
  #worker: Promise<void> | undefined;
  /** Events dropped because the queue was full (oldest first). */
  dropped = 0;

  constructor(
    private readonly deliver: Deliver,
    options: { capacity?: number } = {},
  ) {
    this.#capacity = options.capacity ?? QUEUE_CAPACITY;
  }

  /** Queues an event (one JSON object, serialized) for delivery. Never blocks; after `close`, does nothing. */
  emit(payload: string): void {
    if (this.#closed) return;
    this.#queue.push(payload);
    while (this.#queue.length > this.#capacity) {
      this.#queue.shift();
      this.dropped++;
    }
    this.#worker ??= this.#work();
  }

  /** Resolves when every event queued so far has been delivered (or dropped). */
  async idle(): Promise<void> {
    while (this.#worker) await this.#worker;
  }

  /** Abandons queued events, stops the one in flight, and waits for the worker to finish. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#queue.length = 0;
    this.#inFlight?.abort();
    await this.#worker;
  }

  async #work(): Promise<void> {
    try {
      for (let next = this.#queue.shift(); next !== undefined && !this.#closed; next = this.#queue.shift()) {
        const abort = new AbortController();
        this.#inFlight = abort;
        await this.deliver(next, abort.signal).catch((error: unknown) =>
          log.debug("a lifecycle notification failed", error),
        );
        this.#inFlight = undefined;
      }
    } finally {
      this.#worker = undefined;
    }
  }
}
