/**
 * Everything past `initialize`: the journal, the providers, the tools and the session handlers.
 * The app loads this module on the first method that needs it, so answering `initialize` costs
 * only the SDK.
 */
import { engineDeps } from "../core/engine-deps.ts";
import type { EngineDeps } from "../core/session/session-runtime.ts";
import type { ProviderCatalog } from "../core/providers/catalog.ts";
import type { AfterResponse } from "./after-response.ts";
import { attachHandlers } from "./attach-handlers.ts";
import { authHandlers } from "./auth-handlers.ts";
import type { ClientProfile } from "./client-profile.ts";
import { configHandlers } from "./config-handlers.ts";
import { forkHandlers } from "./fork-handler.ts";
import { ForkMessageIds } from "./fork-message-ids.ts";
import { Followers } from "./followers.ts";
import { HandlerTable } from "./handler-table.ts";
import type { AgentContext } from "@agentclientprotocol/sdk/unstable";
import type { ReplayFirst } from "./replay-first.ts";
import { goLive } from "./replayed-sessions.ts";
import { defined } from "../shared/defined.ts";
import { listHandlers } from "./list-handler.ts";
import { OpenSessions } from "./open-sessions.ts";
import { promptHandlers } from "./prompt-handlers.ts";
import { replayCacheOf } from "../core/replay-cache/kept-cache.ts";
import { rewindHandlers } from "./rewind-handlers.ts";
import { lifecycleHandlers } from "./session-lifecycle.ts";
import { steeringHandlers } from "./steering-handler.ts";
import { titleHandlers } from "./title-handler.ts";

/**
 * Makes live the sessions `first` served before the engine had loaded (replay-first.ts), once
 * it has stopped serving them; from then on loads and resumes are the engine's.
 */
export async function takeOver(loaded: LoadedHandlers, first: ReplayFirst): Promise<void> {
  goLive(loaded.deps, loaded.sessions, await first.handOver());
}

/** The handlers past `initialize`, with what they were wired to. */
export type LoadedHandlers = { deps: EngineDeps; sessions: OpenSessions; followers: Followers; handlers: HandlerTable };

/**
 * Wires the session handlers to `deps` (from the environment when not given, reusing the
 * process catalog `initialize` already built); `profile` is the client as its last `initialize`
 * described it; `responses` runs work after a response is written (the app watches the
 * connection's stream with it).
 */
export function loadHandlers(
  deps: EngineDeps | undefined,
  profile: () => ClientProfile,
  options: {
    trust: boolean;
    catalog?: ProviderCatalog;
    responses: AfterResponse;
    forkMessageIds?: ForkMessageIds;
    /** What loads were served from before the engine loaded: its journal, catalogs and update sender are the engine's too. */
    replayFirst?: ReplayFirst;
  },
): LoadedHandlers {
  const first = options.replayFirst;
  const wired = deps ?? engineDeps(process.env, { ...options, ...defined({ reading: first?.deps }) });
  const sessions = new OpenSessions(
    options.responses,
    profile,
    replayCacheOf(wired.store),
    wired.store,
    wired.replaySeal,
    ...(first ? [(client: AgentContext) => first.sender(client)] : []),
  );
  const handlers = new HandlerTable();
  authHandlers(handlers, wired);
  const followers = new Followers();
  lifecycleHandlers(handlers, wired, sessions, followers);
  forkHandlers(handlers, wired, sessions, options.forkMessageIds ?? new ForkMessageIds());
  listHandlers(handlers, wired);
  promptHandlers(handlers, sessions, followers, wired.store);
  rewindHandlers(handlers, sessions);
  configHandlers(handlers, sessions);
  titleHandlers(handlers, wired.store, sessions);
  attachHandlers(handlers, wired.store, sessions, followers);
  steeringHandlers(handlers, sessions, followers);
  return { deps: wired, sessions, followers, handlers };
}
