/**
 * Sends session updates to the client in order. The SDK serializes writes, so waiting for the
 * last send means every earlier update was written: responses wait on `flush()` so no update
 * of a turn or a replay arrives after its response.
 */
import type { ExtensionNotification, ExtensionNotificationParams } from "../protocol/extensions.ts";
import type { AgentContext, SessionNotification, SessionUpdate } from "@agentclientprotocol/sdk/unstable";
import { WrittenLines } from "./written-lines.ts";
import { methods } from "@agentclientprotocol/sdk/unstable";
import { log } from "../shared/log.ts";

/** How many updates may be in flight before a replay waits for the client to take them. */
const REPLAY_HIGH_WATER = 512;

export class UpdateSender {
  #last: Promise<void> = Promise.resolve();
  #inFlight = 0;

  constructor(private readonly client: AgentContext) {}

  /** Sends `update` of `sessionId`, with `meta` as the notification's `_meta` when given. */
  send(sessionId: string, update: SessionUpdate, meta?: Record<string, unknown>): void {
    this.#inFlight++;
    const params: SessionNotification = meta ? { sessionId, update, _meta: meta } : { sessionId, update };
    this.#last = this.client.notify(methods.client.session.update, params).then(this.#sent, this.#failed);
  }

  /** Sends an extension notification, in order with the updates sent before and after it. */
  sendExtension<N extends ExtensionNotification>(method: N, params: ExtensionNotificationParams<N>): void {
    this.#inFlight++;
    this.#last = this.client.notify(method, params).then(this.#sent, this.#failed);
  }

  /**
   * Sends lines already serialized as session updates (a replay cache row), in order with the
   * updates sent before and after them. They go through the SDK's notification path (which
   * neither validates nor rewrites a notification's params) and are written as they are.
   */
  sendLines(lines: readonly (string | Uint8Array)[]): void {
    this.#inFlight++;
    const carried = new WrittenLines(lines) as unknown as SessionNotification;
    this.#last = this.client.notify(methods.client.session.update, carried).then(this.#sent, this.#failed);
  }

  readonly #sent = (): void => {
    this.#inFlight--;
  };

  readonly #failed = (error: unknown): void => {
    this.#inFlight--;
    log.warn("could not send a session update", error);
  };

  /** Resolves once every update sent so far has been written. */
  flush(): Promise<void> {
    return this.#last;
  }

  /**
   * Backpressure: a promise (resolved once every update sent so far is written) to wait on when
   * at least `highWater` updates are in flight; undefined otherwise. Replays allow many in flight
   * (throughput); a live turn few (each update reaches the client right after its event).
   */
  pressure(highWater = REPLAY_HIGH_WATER): Promise<void> | undefined {
    return this.#inFlight >= highWater ? this.#last : undefined;
  }
}
