/**
 * The `messageId` of each `session/fork` request as received (the fork-at-message RFD's field):
 * SDK 2.4.0's schema for `session/fork` predates it and drops it from the params a handler gets,
 * so the app notes it from the raw request, by request id, before the SDK dispatches the request.
 * One per connection (request ids are a connection's).
 */
export class ForkMessageIds {
  readonly #byRequest = new Map<string | number, unknown>();

  /** Notes the `messageId` of `message` if it is a `session/fork` request that has one. */
  received(message: unknown): void {
    if (typeof message !== "object" || message === null) return;
    const { method, id, params } = message as { method?: unknown; id?: unknown; params?: unknown };
    if (method !== "session/fork" || (typeof id !== "string" && typeof id !== "number")) return;
    if (typeof params !== "object" || params === null || !("messageId" in params)) return;
    this.#byRequest.set(id, (params as { messageId: unknown }).messageId);
  }

  /** The `messageId` the request `requestId` carried (taken: asked once per request), if any. */
  take(requestId: string | number | null): unknown {
    if (requestId === null) return undefined;
    const value = this.#byRequest.get(requestId);
    this.#byRequest.delete(requestId);
    return value;
  }
}
