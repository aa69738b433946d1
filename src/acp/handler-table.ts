/**
 * A table of typed ACP handlers. The handler modules register into it the way they would into
 * the SDK's app; the app forwards each method to it once the engine has loaded (see
 * `agent-app.ts`: nothing past `initialize` is loaded before it is needed).
 */
import type {
  AgentNotificationHandlersByMethod,
  AgentNotificationMethod,
  AgentRequestContext,
  AgentRequestHandlersByMethod,
  AgentRequestMethod,
} from "@agentclientprotocol/sdk/unstable";
import {
  EXTENSION_METHODS,
  type ExtensionMethod,
  type ExtensionParams,
  type ExtensionResult,
} from "../protocol/extensions.ts";

/** An extension method's handler: its params parsed, its answer the method's result (src/protocol/extensions.ts). */
export type ExtensionHandler<M extends ExtensionMethod> = (
  context: AgentRequestContext<ExtensionParams<M>>,
) => Promise<ExtensionResult<M>>;

/** Where handler modules register their handlers. */
export interface HandlerRegistry {
  onRequest<M extends AgentRequestMethod>(method: M, handler: AgentRequestHandlersByMethod[M]): unknown;
  onNotification<M extends AgentNotificationMethod>(method: M, handler: AgentNotificationHandlersByMethod[M]): unknown;
  /** An extension method (src/protocol/extensions.ts), whose params its schema checked. */
  onExtension<M extends ExtensionMethod>(method: M, handler: ExtensionHandler<M>): unknown;
}

export class HandlerTable implements HandlerRegistry {
  readonly #requests = new Map<string, unknown>();
  readonly #notifications = new Map<string, unknown>();
  readonly #extensions = new Map<string, (context: AgentRequestContext<unknown>) => Promise<unknown>>();

  onRequest<M extends AgentRequestMethod>(method: M, handler: AgentRequestHandlersByMethod[M]): this {
    this.#requests.set(method, handler);
    return this;
  }

  onNotification<M extends AgentNotificationMethod>(method: M, handler: AgentNotificationHandlersByMethod[M]): this {
    this.#notifications.set(method, handler);
    return this;
  }

  onExtension<M extends ExtensionMethod>(method: M, handler: ExtensionHandler<M>): this {
    // The app parsed the params with the same schema; parsing again here gives the handler its type.
    const params = EXTENSION_METHODS[method].params;
    this.#extensions.set(method, (context) =>
      handler({ ...context, params: params.parse(context.params) as ExtensionParams<M> }),
    );
    return this;
  }

  /** The handler registered for an extension method, if any. */
  extension(method: string): ((context: AgentRequestContext<unknown>) => Promise<unknown>) | undefined {
    return this.#extensions.get(method);
  }

  /** The handler registered for a request method, if any. */
  request<M extends AgentRequestMethod>(method: M): AgentRequestHandlersByMethod[M] | undefined {
    return this.#requests.get(method) as AgentRequestHandlersByMethod[M] | undefined;
  }

  notification<M extends AgentNotificationMethod>(method: M): AgentNotificationHandlersByMethod[M] | undefined {
    return this.#notifications.get(method) as AgentNotificationHandlersByMethod[M] | undefined;
  }

  /** Every method with a handler: requests, notifications, extension methods. */
  methods(): { requests: string[]; notifications: string[]; extensions: string[] } {
    return {
      requests: [...this.#requests.keys()],
      notifications: [...this.#notifications.keys()],
      extensions: [...this.#extensions.keys()],
    };
  }
}
