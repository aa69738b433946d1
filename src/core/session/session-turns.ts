/**
 * The turns of one session: the one that runs, the prompts waiting in line for it (turn-line.ts),
 * and the steering texts on their way into it (steering-box.ts). What a turn does is the
 * session's (`TurnStarter.run`: session-turn.ts); this decides when a turn starts, which turn a
 * steering text joins, and what a cancel stops.
 */
import type { ContentBlock } from "@agentclientprotocol/sdk";
import { log } from "../../shared/log.ts";
import type { TurnOutcome } from "../turn/run-turn.ts";
import type { PromptOrigin } from "./session-turn.ts";
import { SteeringBox } from "./steering-box.ts";
import { TurnLine } from "./turn-line.ts";

/** What the session gives its turns. */
export type TurnStarter = {
  readonly sessionId: string;
  /** Throws (an EngineError) when no turn may start now: the session closed, its directory gone. */
  check(): void;
  /** Whether the session has closed (a turn handed the line then never starts). */
  closed(): boolean;
  /** Starts what the session does in the background, if it has not yet. */
  begin(): void;
  /** Runs one turn, from its prompt to its end (or until `abort` cancels it). */
  run(blocks: ContentBlock[], abort: AbortController, origin: PromptOrigin): Promise<TurnOutcome>;
};

export type SteerOutcome = "injected" | "startedNewTurn" | "promptRequired";

const CANCELLED: TurnOutcome = { ok: true, stopReason: "cancelled" };

export class SessionTurns {
  readonly #line: TurnLine;
  readonly steering = new SteeringBox();
  #done: Promise<TurnOutcome> | undefined;

  constructor(private readonly session: TurnStarter) {
    this.#line = new TurnLine(session.sessionId);
  }

  /** Whether a turn runs now (or has been handed the line and is about to). */
  get running(): boolean {
    return this.#line.busy;
  }

  /** Whether the line has room for one more prompt now. */
  get acceptsPrompt(): boolean {
    return this.#line.hasRoom;
  }

  /**
   * Runs a prompt once every turn ahead of it in line has ended; a cancel meanwhile ends it
   * `cancelled` with nothing recorded. Throws EngineError `queue_full` when the line is full.
   */
  prompt(blocks: ContentBlock[], origin: PromptOrigin): Promise<TurnOutcome> {
    return this.#prompt(blocks, origin);
  }

  /**
   * A steering text: into the running turn, which records it and gives it to the model before
   * its next step (`injected`); when no turn would take it, a turn of its own (`startedNewTurn`,
   * its prompt recorded `steered`, nobody waiting for its end), unless `idle` is
   * `promptRequired` (then nothing is taken).
   */
  steer(blocks: ContentBlock[], idle: "startTurn" | "promptRequired"): SteerOutcome {
    this.session.check();
    if (this.steering.offer(blocks)) return "injected";
    if (idle === "promptRequired") return "promptRequired";
    this.#steeredTurn(blocks, []);
    return "startedNewTurn";
  }

  /** Cancels the running turn (it ends `cancelled`) and every prompt waiting behind it (each ends `cancelled`, never having run). */
  cancel(): void {
    this.#line.cancel();
  }

  /** Resolves once the running turn, if any, has settled. */
  async settled(): Promise<void> {
    await this.#done?.catch(() => undefined);
  }

  async #prompt(blocks: ContentBlock[], origin: PromptOrigin, pending?: ContentBlock[][]): Promise<TurnOutcome> {
    this.session.check();
    this.session.begin();
    // A turn a steering text starts goes first: its text was accepted before the prompts waiting.
    const abort = await this.#line.take({ front: origin.steered === true });
    if (!abort) return CANCELLED;
    try {
      // Handed the line but cancelled (or closed) before it began: it never started.
      if (abort.signal.aborted || this.session.closed()) return CANCELLED;
      this.steering.open(pending);
      const done = this.session.run(blocks, abort, origin);
      this.#done = done;
      return await done;
    } finally {
      this.#done = undefined;
      this.#afterTurn(abort.signal);
      this.#line.release();
    }
  }

  /**
   * Steering the turn took but never gave the model (it failed, hit a limit, or ended before a
   * step) starts a turn of its own, next in line. A cancelled turn's is dropped with it.
   */
  #afterTurn(cancelled: AbortSignal): void {
    const [first, ...rest] = this.steering.close();
    if (!first) return;
    if (cancelled.aborted || this.session.closed()) {
      log.info(`session ${this.session.sessionId}: steering that had not reached the model was dropped with its turn`);
      return;
    }
    this.#steeredTurn(first, rest);
  }

  /** Starts a turn from a steering text (the rest land before its first step); nobody waits for its outcome. */
  #steeredTurn(blocks: ContentBlock[], pending: ContentBlock[][]): void {
    const id = this.session.sessionId;
    this.#prompt(blocks, { steered: true }, pending).then(
      (outcome) => {
        if (!outcome.ok) log.warn(`session ${id}: a turn steering started failed: ${outcome.error}`);
      },
      (error: unknown) => log.warn(`session ${id}: a turn steering started could not run`, error),
    );
  }
}
