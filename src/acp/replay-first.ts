/**
 * A `session/load` or `session/resume` that arrives before the engine has loaded is answered from
 * what replay needs (the journal, the replay cache's lines, the projection: core/session/
 * replay-stored.ts), not after the whole engine (tools, providers, hooks, MCP) has loaded: an
 * editor that starts verbatim to reopen a session gets it as soon as it could from a running one.
 * The client sees exactly what such a load sends when the engine has loaded (session-lifecycle.ts):
 * the same updates, then the same response. The session becomes live when the engine is ready
 * (replayed-sessions.ts); the app sends every request that needs the engine there, so a prompt
 * meanwhile waits for it and never fails. This module reaches no tool, provider, hook or MCP code
 * at runtime (test/start/replay-first-imports.test.ts).
 */
import type {
  AgentContext,
  LoadSessionRequest,
  LoadSessionResponse,
  ResumeSessionRequest,
  ResumeSessionResponse,
} from "@agentclientprotocol/sdk/unstable";
import type { McpServerConfig } from "../core/mcp/server-config.ts";
import { readingDeps, type ReadingDeps } from "../core/reading-deps.ts";
import { replayCacheOf } from "../core/replay-cache/kept-cache.ts";
import type { ProviderCatalog } from "../core/providers/catalog.ts";
import { replayStored, type ReplayedSession } from "../core/session/replay-stored.ts";
import { currentConfigOptions } from "../core/session/session-config.ts";
import type { ReplayCacheStore } from "../journal/replay-cache.ts";
import type { FactStore, LeaseStore } from "../journal/store.ts";
import { openingUpdates } from "../replay/opening-updates.ts";
import { clientReplaySink } from "./client-replay-sink.ts";
import type { ClientProfile } from "./client-profile.ts";
import { throwIfCancelled, typed, unknownSession } from "./errors.ts";
import { mcpServerConfigs } from "./mcp-servers.ts";
import { modeState } from "./mode-state.ts";
import { checkDirectories, checkSessionId } from "./request-checks.ts";
import { SessionQueue } from "./session-queue.ts";
import { UpdateSender } from "./update-sender.ts";

/** A session read (and, for a load, replayed) here, for the engine to make live on the same connection. */
export type PendingSession = {
  replayed: ReplayedSession;
  client: AgentContext;
  /** The request's directories, which the live session activates (session-lifecycle.ts `activate`). */
  params: { cwd: string; additionalDirectories?: string[] | null };
  mcpServers: McpServerConfig[];
};

export class ReplayFirst {
  /** The sessions opened here, by id, the last load or resume of each. */
  readonly #pending = new Map<string, PendingSession>();
  /** Loads and resumes not settled yet. */
  readonly #running = new Set<Promise<unknown>>();
  /** Loads and resumes of one session run one at a time, as the engine's do (session-queue.ts). */
  readonly #lifecycle = new SessionQueue();
  #sender: UpdateSender | undefined;
  #handedOver = false;

  /**
   * `deps`: the journal and catalogs; `cache`: the journal, when the replay cache is kept;
   * `profile`: the client as its last `initialize` described it.
   */
  constructor(
    readonly deps: ReadingDeps,
    readonly cache: (FactStore & LeaseStore & ReplayCacheStore) | undefined,
    readonly profile: () => ClientProfile,
  ) {}

  /** Whether loads and resumes are still served here: until the engine takes the sessions over. */
  get serving(): boolean {
    return !this.#handedOver;
  }

  /** Whether a load or resume is being served here now. */
  get busy(): boolean {
    return this.#running.size > 0;
  }

  /** The connection's one update sender, which the engine's sessions go on using (open-sessions.ts). */
  sender(client: AgentContext): UpdateSender {
    this.#sender ??= new UpdateSender(client);
    return this.#sender;
  }

  /** `session/load`: the replay, then the response a load sends once the engine has loaded. */
  load(params: LoadSessionRequest, client: AgentContext, signal: AbortSignal): Promise<LoadSessionResponse> {
    return this.#served(params, async () => {
      throwIfCancelled(signal);
      const mcpServers = mcpServerConfigs(params.mcpServers);
      const profile = this.profile();
      const replayed = await this.#read(params.sessionId, {
        replay: clientReplaySink(this.sender(client), params.sessionId, profile, signal),
      });
      this.#pending.set(params.sessionId, { replayed, client, params, mcpServers });
      return this.#answer(replayed);
    });
  }

  /** `session/resume`: nothing replayed; what a load's replay ends with is sent before the response, as a load sends it. */
  resume(params: ResumeSessionRequest, client: AgentContext): Promise<ResumeSessionResponse> {
    return this.#served(params, async () => {
      const open = this.#pending.get(params.sessionId);
      const mcpServers = open?.mcpServers ?? mcpServerConfigs(params.mcpServers);
      const replayed = open?.replayed ?? (await this.#read(params.sessionId, {}));
      this.#pending.set(params.sessionId, { replayed, client: open?.client ?? client, params, mcpServers });
      const sender = this.sender(client);
      for (const update of openingUpdates(replayed.fold.state)) sender.send(params.sessionId, update);
      await sender.flush();
      return this.#answer(replayed);
    });
  }

  /**
   * Stops serving loads and resumes, waits for those running, and returns the sessions opened
   * here, each once, for the engine to make live (replayed-sessions.ts).
   */
  async handOver(): Promise<PendingSession[]> {
    this.#handedOver = true;
    while (this.#running.size > 0) await Promise.allSettled([...this.#running]);
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    return pending;
  }

  /** Checks the request as the engine's handler does, then runs `task` in the session's line. */
  #served<T>(
    params: { sessionId: string; cwd: string; additionalDirectories?: string[] | null },
    task: () => Promise<T>,
  ) {
    const run = typed(() => {
      checkSessionId(params.sessionId);
      checkDirectories(params.cwd, params.additionalDirectories ?? []);
      return this.#lifecycle.run(params.sessionId, task);
    });
    this.#running.add(run);
    const settled = () => this.#running.delete(run);
    run.then(settled, settled);
    return run;
  }

  async #read(sessionId: string, options: Pick<Parameters<typeof replayStored>[1], "replay">) {
    const replayed = await replayStored(this.deps, {
      sessionId,
      capabilities: this.profile().replay,
      cache: this.cache,
      ...options,
    });
    if (!replayed) throw unknownSession(sessionId);
    return replayed;
  }

  /** What the engine's load and resume answer: the session's modes and config options as they stand. */
  #answer({ fold }: ReplayedSession): LoadSessionResponse {
    return {
      modes: modeState(fold.state),
      configOptions: currentConfigOptions(fold.state, this.deps.catalogFor(fold.state.cwd)),
    };
  }
}

/**
 * What loads and resumes are served from before the engine has loaded: `deps`' journal and
 * catalogs when given, else the environment's (reading-deps.ts; `trust` and `catalog` as the
 * engine takes them).
 */
export function replayFirst(
  deps: ReadingDeps | undefined,
  profile: () => ClientProfile,
  options: { trust: boolean; catalog?: ProviderCatalog },
): ReplayFirst {
  const reading = deps ?? readingDeps(process.env, options);
  return new ReplayFirst(reading, replayCacheOf(reading.store), profile);
}
