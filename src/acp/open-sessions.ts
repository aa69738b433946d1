/**
 * The sessions open on one connection: each runtime with the projector that shows its facts.
 * Live, a fact is projected and sent right after it is appended; the projector is the same one
 * a load replays through, so both show the same updates.
 */
import type { AgentContext } from "@agentclientprotocol/sdk/unstable";
import type { SessionIo, SessionRuntime } from "../core/session/session-runtime.ts";
import type { StoredFact } from "../journal/facts/index.ts";
import type { ControllerStore, FactStore, LeaseStore } from "../journal/store.ts";
import type { ReplayCacheStore } from "../journal/replay-cache.ts";
import type { JournalWatch } from "../journal/journal-watch.ts";
import { Projector } from "../replay/project.ts";
import { keptInCache } from "../core/replay-cache/kept-cache.ts";
import type { ReplaySeal } from "../core/replay-cache/replay-seal.ts";
import { permissionGate } from "../core/permissions/permission-gate.ts";
import { cardQuestion } from "../core/permissions/permission-questions.ts";
import { journalClaims, type AnswerClaims } from "../core/permissions/answer-race.ts";
import { withClaimedForms } from "../core/permissions/claimed-forms.ts";
import type { AnsweredBy } from "../journal/facts/index.ts";
import { defined } from "../shared/defined.ts";
import { answererHere } from "../core/permissions/answerer.ts";
import type { AfterResponse } from "./after-response.ts";
import type { ClientProfile } from "./client-profile.ts";
import { clientHost } from "./client-host.ts";
import { askClient, askClientForSubagent } from "./permission-asker.ts";
import { SessionQueue } from "./session-queue.ts";
import { UpdateSender } from "./update-sender.ts";
import { yieldToEventLoop } from "../shared/event-loop.ts";

/** Updates in flight past which a live turn waits for the client (see `UpdateSender.pressure`). */
const LIVE_HIGH_WATER = 4;

export type OpenSession = { runtime: SessionRuntime; projector: Projector };

export class OpenSessions {
  readonly #open = new Map<string, OpenSession>();
  #sender: UpdateSender | undefined;
  /** Loads, resumes, closes and deletes of one session run one at a time; other requests wait for them. */
  readonly lifecycle = new SessionQueue();

  /**
   * `afterResponse`: work that must reach the client after a response (the connection's stream
   * is watched with it); `profile`: the client as its last `initialize` described it;
   * `cacheStore`: the journal, when the replay cache is kept (core/replay-cache/kept-cache.ts);
   * `claimStore`: the journal, where the sessions' questions may be answered from other clients
   * too (journal/answer-claims.ts); `seal`: this user's seal of the cache's rows
   * (core/replay-cache/replay-seal.ts); `makeSender`: makes the connection's update sender (the
   * one a load served before the engine had loaded used: replay-first.ts).
   */
  constructor(
    readonly afterResponse: AfterResponse,
    readonly profile: () => ClientProfile,
    readonly cacheStore: (FactStore & LeaseStore & ReplayCacheStore) | undefined,
    readonly claimStore: (ControllerStore & JournalWatch) | undefined,
    readonly seal?: ReplaySeal,
    readonly makeSender: (client: AgentContext) => UpdateSender = (client) => new UpdateSender(client),
  ) {}

  /** The connection's one update sender (every handler's client context is the same connection). */
  sender(client: AgentContext): UpdateSender {
    this.#sender ??= this.makeSender(client);
    return this.#sender;
  }

  /** Resolves once every update sent so far has been written. */
  async flush(): Promise<void> {
    await this.#sender?.flush();
  }

  get(sessionId: string): OpenSession | undefined {
    return this.#open.get(sessionId);
  }

  set(session: OpenSession): void {
    this.#open.set(session.runtime.sessionId, session);
  }

  delete(sessionId: string): void {
    this.#open.delete(sessionId);
  }

  all(): OpenSession[] {
    return [...this.#open.values()];
  }

  /** This connection as an answerer of questions: this process, its machine, its client's name. */
  answerer(): AnsweredBy {
    return answererHere(this.profile().info?.name);
  }

  #claims(sessionId: string): AnswerClaims | undefined {
    return this.claimStore ? journalClaims(this.claimStore, sessionId, this.answerer()) : undefined;
  }

  newProjector(replay: boolean): Projector {
    return new Projector({ ...this.profile().replay, replay });
  }

  /**
   * The runtime's link to this client: publishing through `projector`, its fs and terminals,
   * asking it for permission.
   */
  io(sessionId: string, client: AgentContext, projector: Projector): SessionIo {
    const sender = this.sender(client);
    const profile = this.profile();
    projector.context.sessionId = sessionId;
    const show = (record: StoredFact) => {
      for (const update of projector.apply(record)) sender.send(sessionId, update);
    };
    return {
      publish: keptInCache(show, this.cacheStore, sessionId, profile.replay, this.seal),
      backpressure: () => sender.pressure(LIVE_HIGH_WATER)?.then(yieldToEventLoop),
      host: withClaimedForms(clientHost(client, profile.capabilities, sessionId), this.#claims(sessionId)),
      gate: permissionGate({
        ask: askClient(client, sessionId, projector),
        ...defined({ claims: this.#claims(sessionId) }),
      }),
      asker: askClient(client, sessionId, projector),
      askCard: cardQuestion({
        ask: askClient(client, sessionId, projector),
        ...defined({ claims: this.#claims(sessionId) }),
      }),
      childGate: (origin) =>
        permissionGate({
          ask: askClientForSubagent(client, sessionId, projector, origin),
          ...defined({ claims: this.#claims(origin.sessionId) }),
        }),
    };
  }
}
