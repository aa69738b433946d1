/**
 * The engine of one connection, loaded when first needed: what loads and resumes are served from
 * before it has loaded (replay-first.ts), the engine itself (lazy-handlers.ts, imported on first
 * use), the process's provider catalog (what `initialize` offers to configure), and the client as
 * its last `initialize` described it. agent-app.ts wires the methods to it.
 */
import type { ProviderCatalog } from "../core/providers/catalog.ts";
import type { EngineDeps } from "../core/session/session-runtime.ts";
import { defined } from "../shared/defined.ts";
import { AfterResponse } from "./after-response.ts";
import { clientProfile, type ClientProfile } from "./client-profile.ts";
import { ForkMessageIds } from "./fork-message-ids.ts";
import type { LoadedHandlers } from "./lazy-handlers.ts";
import type { ReplayFirst } from "./replay-first.ts";
import { collectUnlessAsked, warmUp } from "./warm-up.ts";

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

export class EngineLoader {
  /** The client as its last `initialize` described it: derived once there, read by every session. */
  profile: ClientProfile = clientProfile();
  /** Whether the client has sent a method past `initialize` (the warm-up then leaves out its collection). */
  asked = false;
  readonly responses = new AfterResponse();
  readonly forkMessageIds = new ForkMessageIds();
  /** The engine, once loaded. */
  loaded: LoadedHandlers | undefined;
  #loading: Promise<LoadedHandlers> | undefined;
  #catalog: ProviderCatalog | undefined;
  #closed = false;
  readonly #mode: ReplayFirstMode;
  /** What loads and resumes are served from before the engine has loaded (replay-first.ts); undefined when off. */
  #reading: Promise<ReplayFirst | undefined> | undefined;

  constructor(
    private readonly deps: EngineDeps | undefined,
    private readonly options: { trust?: boolean; replayFirst?: ReplayFirstMode },
  ) {
    this.#catalog = deps?.catalog;
    this.#mode = options.replayFirst ?? replayFirstModeOf(process.env);
  }

  #readingSide(): Promise<ReplayFirst | undefined> {
    this.#reading ??=
      this.#mode === "off"
        ? Promise.resolve(undefined)
        : import("./replay-first.ts").then(({ replayFirst }) =>
            replayFirst(this.deps, () => this.profile, {
              trust: this.options.trust ?? false,
              ...defined({ catalog: this.#catalog }),
            }),
          );
    return this.#reading;
  }

  /** The engine, loaded on the first call (taking over the sessions served before it). */
  load(): Promise<LoadedHandlers> {
    this.#loading ??= (async () => {
      const first = await this.#readingSide();
      const { loadHandlers, takeOver } = await import("./lazy-handlers.ts");
      const loaded = loadHandlers(this.deps, () => this.profile, {
        trust: this.options.trust ?? false,
        responses: this.responses,
        forkMessageIds: this.forkMessageIds,
        ...defined({ catalog: this.#catalog, replayFirst: first }),
      });
      if (first) await takeOver(loaded, first);
      this.loaded = loaded;
      warmUp([() => loaded.deps.store.warm(), () => loaded.deps.replaySeal?.warm()], () => this.#closed, [
        collectUnlessAsked(() => this.asked),
      ]);
      return loaded;
    })();
    return this.#loading;
  }

  /** Loads the engine, unless a load is being served before it (which calls this again once answered). */
  whenIdle(): void {
    if (this.#closed || this.#loading) return;
    void this.#readingSide().then(
      (first) => {
        if (this.#closed || this.#loading || first?.busy) return;
        this.load().catch(() => undefined);
      },
      () => undefined,
    );
  }

  /** A load or resume answered before the engine has loaded, or undefined once the engine answers them. */
  async servedFirst(): Promise<ReplayFirst | undefined> {
    if (this.loaded || this.#mode === "off") return undefined;
    const first = await this.#readingSide().catch(() => undefined);
    return first?.serving ? first : undefined;
  }

  /** The catalog of the directory verbatim runs in: what `initialize` offers to configure. */
  async catalog(): Promise<ProviderCatalog> {
    if (!this.#catalog) {
      const [{ catalogFromEnv }, { isTrusted }] = await Promise.all([
        import("../core/providers/catalog.ts"),
        import("../core/hooks/trust.ts"),
      ]);
      const cwd = process.cwd();
      this.#catalog = catalogFromEnv(process.env, cwd, {
        trustProject: (this.options.trust ?? false) || isTrusted(process.env, cwd),
      });
    }
    return this.#catalog;
  }

  /** See Agent.preload (agent-app.ts). */
  preload(): void {
    if (this.#closed) return;
    if (this.#mode === "off") {
      this.whenIdle();
      return;
    }
    // The journal opens now; the engine once the client has had the time to send a load, which
    // is then answered first (replay-first.ts), or at once for any other request.
    void this.#readingSide().then(
      () => {
        if (this.#mode === "idle") setTimeout(() => this.whenIdle(), ENGINE_AFTER_IDLE_MS);
      },
      () => undefined,
    );
  }

  /** Cancels running turns and releases every open session (on disconnect). */
  async closeAll(): Promise<void> {
    this.#closed = true;
    // An engine still loading takes its sessions over first (replay-first.ts), then they close with the rest.
    const loaded = this.loaded ?? (await this.#loading?.catch(() => undefined));
    // Followers stop first: nothing more is read from the journal about to close.
    await loaded?.followers.stopAll();
    if (loaded) await Promise.all(loaded.sessions.all().map((s) => s.runtime.close()));
    // The journal the loads served before the engine opened; once loaded, the engine's owner closes it (loadedDeps).
    else if (!this.deps && this.#reading) await (await this.#reading.catch(() => undefined))?.deps.store.close();
  }
}
