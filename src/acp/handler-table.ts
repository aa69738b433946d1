/**
 * A table of typed ACP handlers. The handler modules register into it the way they would into
 * the SDK's app; the app forwards each method to it once the engine has loaded (see
 * `agent-app.ts`: nothing past `initialize` is loaded before it is needed).
 */
import type {
  AgentNotificationHandlersByMethod,
  AgentNotificationMethod,
  AgentRequestHandlersByMethod,
  AgentRequestMethod,
} from "@agentclientprotocol/sdk/unstable";

/** Where handler modules register their handlers. */
export interface HandlerRegistry {
  onRequest<M extends AgentRequestMethod>(method: M, handler: AgentRequestHandlersByMethod[M]): unknown;
  onNotification<M extends AgentNotificationMethod>(method: M, handler: AgentNotificationHandlersByMethod[M]): unknown;
}

export class HandlerTable implements HandlerRegistry {
  readonly #requests = new Map<string, unknown>();
  readonly #notifications = new Map<string, unknown>();

  onRequest<M extends AgentRequestMethod>(method: M, handler: AgentRequestHandlersByMethod[M]): this {
    this.#requests.set(method, handler);
    return this;
  }

  onNotification<M extends AgentNotificationMethod>(method: M, handler: AgentNotificationHandlersByMethod[M]): this {
    this.#notifications.set(method, handler);
    return this;
  }

  /** The handler registered for a request method, if any. */
  request<M extends AgentRequestMethod>(method: M): AgentRequestHandlersByMethod[M] | undefined {
    return this.#requests.get(method) as AgentRequestHandlersByMethod[M] | undefined;
  }

  notification<M extends AgentNotificationMethod>(method: M): AgentNotificationHandlersByMethod[M] | undefined {
    return this.#notifications.get(method) as AgentNotificationHandlersByMethod[M] | undefined;
  }

  /** Every method with a handler, requests then notifications. */
  methods(): { requests: string[]; notifications: string[] } {
    return { requests: [...this.#requests.keys()], notifications: [...this.#notifications.keys()] };
  }
}
