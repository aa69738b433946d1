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
  type Stream,
} from "@agentclientprotocol/sdk/unstable";
import type { ProviderCatalog } from "../core/providers/catalog.ts";
import type { EngineDeps } from "../core/session/session-runtime.ts";
import { AfterResponse } from "./after-response.ts";
import { collectUnlessAsked, warmUp } from "./warm-up.ts";
import { ForkMessageIds } from "./fork-message-ids.ts";
import { EXTENSION_REQUESTS, type ExtensionRequest } from "./extension-requests.ts";
import { initializeResponse } from "./capabilities.ts";
import { clientProfile, type ClientProfile } from "./client-profile.ts";
import type { LoadedHandlers } from "./lazy-handlers.ts";
import type { ReplayFirst } from "./replay-first.ts";
import { typed } from "./errors.ts";
import { offeredAuthMethods } from "./terminal-auth.ts";
import { VERSION } from "../shared/version.ts";
import { defined } from "../shared/defined.ts";
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
  options: { trust?: boolean; replayFirst?: ReplayFirstMode } = {},
): Agent {
  // The client as its last `initialize` described it: derived once there, read by every session.
  let profile: ClientProfile = clientProfile();
  let engine: LoadedHandlers | undefined;
  let loading: Promise<LoadedHandlers> | undefined;
  let processCatalog: ProviderCatalog | undefined = deps?.catalog;
  let closed = false;
  /** Whether the client has sent a method past `initialize` (the warm-up then leaves out its collection). */
  let asked = false;
  const responses = new AfterResponse();
  const forkMessageIds = new ForkMessageIds();
  const replayFirstMode = options.replayFirst ?? replayFirstModeOf(process.env);
  /** What loads and resumes are served from before the engine has loaded (replay-first.ts); undefined when off. */
  let reading: Promise<ReplayFirst | undefined> | undefined;
  const readingSide = (): Promise<ReplayFirst | undefined> =>
    (reading ??=
      replayFirstMode === "off"
        ? Promise.resolve(undefined)
        : import("./replay-first.ts").then(({ replayFirst }) =>
            replayFirst(deps, () => profile, {
              trust: options.trust ?? false,
              ...defined({ catalog: processCatalog }),
            }),
          ));
  const load = (): Promise<LoadedHandlers> =>
    (loading ??= (async () => {
      const first = await readingSide();
      const { loadHandlers, takeOver } = await import("./lazy-handlers.ts");
      const loaded = loadHandlers(deps, () => profile, {
        trust: options.trust ?? false,
        responses,
        forkMessageIds,
        ...defined({ catalog: processCatalog, replayFirst: first }),
      });
      if (first) await takeOver(loaded, first);
      engine = loaded;
      warmUp([() => loaded.deps.store.warm(), () => loaded.deps.replaySeal?.warm()], () => closed, [
        collectUnlessAsked(() => asked),
      ]);
      return loaded;
    })());
  /** Loads the engine, unless a load is being served before it (which calls this again once answered). */
  const engineWhenIdle = (): void => {
    if (closed || loading) return;
    void readingSide().then(
      (first) => {
        if (closed || loading || first?.busy) return;
        load().catch(() => undefined);
      },
      () => undefined,
    );
  };
  /** A load or resume answered before the engine has loaded, or undefined once the engine answers them. */
  const servedFirst = async (): Promise<ReplayFirst | undefined> => {
    if (engine || replayFirstMode === "off") return undefined;
    const first = await readingSide().catch(() => undefined);
    return first?.serving ? first : undefined;
  };
  /** The catalog of the directory verbatim runs in: what `initialize` offers to configure. */
  const catalog = async (): Promise<ProviderCatalog> => {
    if (!processCatalog) {
      const [{ catalogFromEnv }, { isTrusted }] = await Promise.all([
        import("../core/providers/catalog.ts"),
        import("../core/hooks/trust.ts"),
      ]);
      const cwd = process.cwd();
      processCatalog = catalogFromEnv(process.env, cwd, {
        trustProject: (options.trust ?? false) || isTrusted(process.env, cwd),
      });
    }
    return processCatalog;
  };

  const app = acp.agent({ name: "verbatim" }).onRequest(m.initialize, ({ params }) =>
    typed(async () => {
      if (!Number.isInteger(params.protocolVersion) || params.protocolVersion < 0) {
        throw RequestError.invalidParams(
          { protocolVersion: params.protocolVersion },
          "protocolVersion must be a non-negative integer",
        );
      }
      profile = clientProfile(params.clientCapabilities ?? {}, params.clientInfo ?? undefined);
      return initializeResponse(
        deps?.agentVersion ?? VERSION,
        offeredAuthMethods(profile.capabilities, (await catalog()).setupMethods()),
      );
    }),
  );
  app.onRequest(m.session.load, async (context) => {
    const first = await servedFirst();
    if (!first) return engineRequest(m.session.load, load, context);
    responses.then(context.requestId, engineWhenIdle);
    return first.load(context.params, context.client, context.signal);
  });
  app.onRequest(m.session.resume, async (context) => {
    const first = await servedFirst();
    if (!first) return engineRequest(m.session.resume, load, context);
    responses.then(context.requestId, engineWhenIdle);
    return first.resume(context.params, context.client);
  });
  for (const method of ENGINE_REQUESTS) if (!SERVED_FIRST.has(method)) forwardRequest(app, method, load);
  for (const method of ENGINE_NOTIFICATIONS) forwardNotification(app, method, load);
  for (const extension of EXTENSION_REQUESTS) forwardExtension(app, extension, load);
  const received = (message: unknown) => {
    if (!asked && isRequestPastInitialize(message)) asked = true;
    forkMessageIds.received(message);
    const sessionId = cancelledSession(message);
    // The SDK's handler still runs later; cancelling twice is harmless.
    if (sessionId !== undefined) engine?.sessions.get(sessionId)?.runtime.cancel();
  };
  return {
    connect: (stream) => app.connect(responses.watch(stream)),
    closeAll: async () => {
      closed = true;
      // An engine still loading takes its sessions over first (replay-first.ts), then they close with the rest.
      const loaded = engine ?? (await loading?.catch(() => undefined));
      // Followers stop first: nothing more is read from the journal about to close.
      await loaded?.followers.stopAll();
      if (loaded) await Promise.all(loaded.sessions.all().map((s) => s.runtime.close()));
      // The journal the loads served before the engine opened; once loaded, the engine's owner closes it (loadedDeps).
      else if (!deps && reading) await (await reading.catch(() => undefined))?.deps.store.close();
    },
    preload: () => {
      if (closed) return;
      if (replayFirstMode === "off") return engineWhenIdle();
      // The journal opens now; the engine once the client has had the time to send a load, which
      // is then answered first (replay-first.ts), or at once for any other request.
      void readingSide().then(
        () => {
          if (replayFirstMode === "idle") setTimeout(engineWhenIdle, ENGINE_AFTER_IDLE_MS);
        },
        () => undefined,
      );
    },
    loadedDeps: () => engine?.deps,
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

/**
 * When a load or resume is answered before the engine has loaded (replay-first.ts), from
 * `VERBATIM_REPLAY_FIRST`: `idle` (the default), when it arrives before the engine has started,
 * which it does once the client has sent nothing for ENGINE_AFTER_IDLE_MS after `initialize`;
 * `always`, when it arrives before any request that needs the engine (which then starts only for
 * such a request, or once the load is answered; for tests that drive one way); `off`, never (the
 * engine loads right after `initialize`, and a load waits for it).
 */
export type ReplayFirstMode = "idle" | "always" | "off";

export function replayFirstModeOf(env: Record<string, string | undefined>): ReplayFirstMode {
  const mode = env.VERBATIM_REPLAY_FIRST;
  return mode === "off" || mode === "always" ? mode : "idle";
}

/** How long after `initialize` the engine waits for a load to come first (a client restoring its session sends it at once). */
const ENGINE_AFTER_IDLE_MS = 20;

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
