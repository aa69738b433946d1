/**
 * While a turn waits on the model (from the prompt, and again once every call of a step has
 * ended, until the model's next words, thinking, plan or call), a status line on stderr says for
 * how long: `… waiting for the model: 12s`, redrawn each second in place and erased by whatever is
 * drawn next (Screen.status). Only at a terminal (the screen shows no status otherwise), and
 * never recorded: it is the watcher's own clock, not a fact of the session.
 */
import type { SessionUpdate } from "@agentclientprotocol/sdk";

/** Nothing is shown before the wait has lasted this long (a model that answers at once shows nothing). */
export const WAIT_SHOWN_AFTER_MS = 1000;

/** What the model saying something looks like. */
const SAID = new Set<SessionUpdate["sessionUpdate"]>([
  "agent_message_chunk",
  "agent_thought_chunk",
  "tool_call",
  "plan",
  "compaction_update",
  "compaction_summary_chunk",
]);

export class WaitIndicator {
  /** When the current wait began; undefined when nothing is waited for. */
  #since: number | undefined;
  #turn = false;
  readonly #open = new Set<string>();

  constructor(
    private readonly status: (text: string | undefined) => void,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** A prompt was sent (or arrived, for a watcher): the model is waited for. */
  turnStarted(): void {
    this.#turn = true;
    this.#open.clear();
    this.#since = this.now();
  }

  turnEnded(): void {
    this.#turn = false;
    this.#since = undefined;
    this.status(undefined);
  }

  /** Follows what the turn shows: the model said something, or its calls all ended. */
  saw(update: SessionUpdate): void {
    if (!this.#turn) return;
    if (update.sessionUpdate === "tool_call") this.#open.add(update.toolCallId);
    if (SAID.has(update.sessionUpdate)) {
      this.#since = undefined;
      this.status(undefined);
    }
    if (update.sessionUpdate !== "tool_call_update") return;
    if (update.status !== "completed" && update.status !== "failed") return;
    this.#open.delete(update.toolCallId);
    if (this.#open.size === 0) this.#since = this.now();
  }

  /** Redraws the status (call it each second). */
  tick(): void {
    if (this.#since === undefined) return;
    const waited = this.now() - this.#since;
    if (waited < WAIT_SHOWN_AFTER_MS) return;
    this.status(`… waiting for the model: ${Math.floor(waited / 1000)}s`);
  }
}
