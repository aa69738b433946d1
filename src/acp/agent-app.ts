/**
 * The ACP agent: method handlers wired to the engine. The wire layer holds no business logic; it
 * checks what the protocol requires, calls the engine, and sends what the projection shows.
 * One app serves one connection.
 *
 * Only `initialize` is answered here. Every other method is forwarded to the engine, which is
 * loaded (journal, tools, fact schemas, session handlers) the first time one of them arrives: an
 * editor that starts the agent gets its `initialize` answer at the cost of the SDK and of reading
 * the config files (to know whether to offer the ways to configure a provider).
 */
import * as acp from "@agentclientprotocol/sdk/unstable";
import {
  RequestError,
  type AgentApp,
  type AgentConnection,
  type AgentNotificationHandlersByMethod,
  type AgentNotificationMethod,
  type AgentRequestHandlersByMethod,
  type AgentRequestMethod,
  type InitializeResponse,
  type Stream,
} from "@agentclientprotocol/sdk/unstable";
import type { EngineDeps } from "../core/session/session-runtime.ts";
import { EngineLoader, type ReplayFirstMode } from "./engine-loader.ts";
import { EXTENSION_REQUESTS, type ExtensionRequest } from "./extension-requests.ts";
import { initializeResponse } from "./capabilities.ts";
import { clientProfile } from "./client-profile.ts";
import type { LoadedHandlers } from "./lazy-handlers.ts";
import { typed } from "./errors.ts";
import { ANSWERED_ID, type AnsweredInitialize } from "./answered-initialize.ts";
import { offeredAuthMethods } from "./terminal-auth.ts";
import { VERSION } from "../shared/version.ts";
import { expandWritten } from "./written-lines.ts";

export type AgentDeps = EngineDeps;

type AnyMessage = Stream["readable"] extends ReadableStream<infer M> ? M : never;

export type Agent = {
  /** Serves the client at the other end of `stream` (stdio). */
  connect(stream: Stream): AgentConnection;
  /** Cancels running turns and releases every open session (on disconnect). */
  closeAll(): Promise<void>;
  /**
   * Opens the journal for reading, then loads the engine in the background once the client has
   * had the time to send a load (which is then answered first: replay-first.ts); call it once
   * `initialize` is answered. Writes nothing and sends nothing; a failure is left for the first
   * method that needs the engine.
   */
  preload(): void;
  /** The engine's dependencies once it has loaded (the given ones, or those built from the environment). */
  loadedDeps(): EngineDeps | undefined;
  /**
   * Serves one in-process client: connects the app to a pair of memory streams and returns the
   * client's end. The agent speaks the unstable entry point (for `session/fork`); a client app of
   * either entry point connects to this stream, as it would to a spawned agent's. Each message
   * the client writes passes `received` first, as on stdio.
   */
  inMemory(): Stream;
  /**
   * Called with each incoming message the moment it is read, before the SDK dispatches it. The
   * SDK settles an answer to verbatim's own request at once but runs a notification's handler
   * later, so a `session/cancel` takes effect here: a cancel read before a permission answer wins.
   */
  received(message: unknown): void;
};

const m = acp.methods.agent;

/** The requests the engine answers. A test checks this list against what the engine registers. */
export const ENGINE_REQUESTS = [
  m.authenticate,
  m.session.new,
  m.session.load,
  m.session.resume,
  m.session.list,
  m.session.fork,
  m.session.close,
  m.session.delete,
  m.session.prompt,
  m.session.setConfigOption,
  m.session.setMode,
  m.session.setTitle,
] as const satisfies readonly AgentRequestMethod[];

/** The notifications the engine handles. */
export const ENGINE_NOTIFICATIONS = [m.session.cancel] as const satisfies readonly AgentNotificationMethod[];

/**
 * Creates the app. Without `deps`, the engine builds them from the environment when it loads;
 * `trust` trusts every workspace (the `--trust` flag, for headless runs); `replayFirst`: when a
 * load is answered before the engine has loaded (`VERBATIM_REPLAY_FIRST` when not given).
 */
export function createAgentApp(
  deps?: AgentDeps,
  options: { trust?: boolean; replayFirst?: ReplayFirstMode; answered?: AnsweredInitialize } = {},
): Agent {
  const engine = new EngineLoader(deps, options);
  const { responses, forkMessageIds } = engine;
  const load = () => engine.load();

  const app = acp.agent({ name: "verbatim" }).onRequest(m.initialize, ({ params, requestId }) =>
    typed(async () => {
      if (!Number.isInteger(params.protocolVersion) || params.protocolVersion < 0) {
        throw RequestError.invalidParams(
          { protocolVersion: params.protocolVersion },
          "protocolVersion must be a non-negative integer",
        );
      }
      engine.profile = clientProfile(params.clientCapabilities ?? {}, params.clientInfo ?? undefined);
      // The start path's answer is the one this would make (test/start/early-initialize.test.ts),
      // so the config is not read again for it: a load waits for this request to be handled.
      if (options.answered && requestId === ANSWERED_ID) return earlyResult(options.answered);
      return initializeResponse(
        deps?.agentVersion ?? VERSION,
        offeredAuthMethods(engine.profile.capabilities, (await engine.catalog()).setupMethods()),
      );
    }),
  );
  app.onRequest(m.session.load, async (context) => {
    const first = await engine.servedFirst();
    if (!first) return engineRequest(m.session.load, load, context);
    responses.then(context.requestId, () => engine.whenIdle());
    return first.load(context.params, context.client, context.signal);
  });
  app.onRequest(m.session.resume, async (context) => {
    const first = await engine.servedFirst();
    if (!first) return engineRequest(m.session.resume, load, context);
    responses.then(context.requestId, () => engine.whenIdle());
    return first.resume(context.params, context.client);
  });
  for (const method of ENGINE_REQUESTS) if (!SERVED_FIRST.has(method)) forwardRequest(app, method, load);
  for (const method of ENGINE_NOTIFICATIONS) forwardNotification(app, method, load);
  for (const extension of EXTENSION_REQUESTS) forwardExtension(app, extension, load);
  const received = (message: unknown) => {
    if (isRequestPastInitialize(message)) engine.asked = true;
    forkMessageIds.received(message);
    const sessionId = cancelledSession(message);
    // The SDK's handler still runs later; cancelling twice is harmless.
    if (sessionId !== undefined) engine.loaded?.sessions.get(sessionId)?.runtime.cancel();
  };
  return {
    connect: (stream) => app.connect(responses.watch(stream)),
    closeAll: () => engine.closeAll(),
    preload: () => engine.preload(),
    loadedDeps: () => engine.loaded?.deps,
    inMemory: () => {
      const toAgent = new TransformStream<AnyMessage, AnyMessage>({
        transform: (message, controller) => {
          received(message);
          controller.enqueue(message);
        },
      });
      const toClient = new TransformStream<AnyMessage, AnyMessage>({
        transform: (message, out) => {
          for (const m of expandWritten(message)) out.enqueue(m);
        },
      });
      app.connect(responses.watch({ readable: toAgent.readable, writable: toClient.writable }));
      return { readable: toClient.readable, writable: toAgent.writable };
    },
    received,
  };
}

/** The result the start path wrote for the request it answered. */
const earlyResult = (answered: AnsweredInitialize): InitializeResponse =>
  (JSON.parse(answered.answer) as { result: InitializeResponse }).result;

/** The session a `session/cancel` notification names, if `message` is one. */
function cancelledSession(message: unknown): string | undefined {
  if (typeof message !== "object" || message === null || "id" in message) return undefined;
  const { method, params } = message as { method?: unknown; params?: unknown };
  if (method !== m.session.cancel || typeof params !== "object" || params === null) return undefined;
  const { sessionId } = params as { sessionId?: unknown };
  return typeof sessionId === "string" ? sessionId : undefined;
}

function forwardRequest<M extends AgentRequestMethod>(
  app: AgentApp,
  method: M,
  load: () => Promise<LoadedHandlers>,
): void {
  type Context = Parameters<AgentRequestHandlersByMethod[M]>[0];
  const forward = (context: Context): Promise<unknown> => engineRequest(method, load, context);
  app.onRequest(method, forward as unknown as AgentRequestHandlersByMethod[M]);
}

/** Hands a request to the engine's handler, once the engine has loaded. */
async function engineRequest<M extends AgentRequestMethod, C>(
  method: M,
  load: () => Promise<LoadedHandlers>,
  context: C,
): Promise<never> {
  const handler = (await load()).handlers.request(method) as ((context: C) => never) | undefined;
  if (!handler) throw RequestError.methodNotFound(method);
  return handler(context);
}

export { type ReplayFirstMode, replayFirstModeOf } from "./engine-loader.ts";

/** The requests answered before the engine has loaded when they come first. */
const SERVED_FIRST: ReadonlySet<AgentRequestMethod> = new Set([m.session.load, m.session.resume]);

function forwardExtension(
  app: AgentApp,
  { method, params }: ExtensionRequest,
  load: () => Promise<LoadedHandlers>,
): void {
  app.onRequest(method, params, async (context) => {
    const handler = (await load()).handlers.extension(method);
    if (!handler) throw RequestError.methodNotFound(method);
    return handler(context);
  });
}

function forwardNotification<M extends AgentNotificationMethod>(
  app: AgentApp,
  method: M,
  load: () => Promise<LoadedHandlers>,
): void {
  type Context = Parameters<AgentNotificationHandlersByMethod[M]>[0];
  const forward = async (context: Context): Promise<void> => {
    const handler = (await load()).handlers.notification(method) as ((context: Context) => unknown) | undefined;
    await handler?.(context);
  };
  app.onNotification(method, forward as unknown as AgentNotificationHandlersByMethod[M]);
}

/** Whether `message` is a request or notification of a method other than `initialize`. */
function isRequestPastInitialize(message: unknown): boolean {
  return typeof message === "object" && message !== null && "method" in message && message.method !== m.initialize;
}
