/**
 * Steering texts (`_session/steering`) on their way into the running turn. The box is open while
 * a turn may still take them: from the turn's start until it decides to end. A text offered then
 * waits here, and the turn lands it (records it, then gives it to the model) before its next
 * step; a turn about to end with texts waiting takes one more step for them instead. Once closed,
 * an offer is refused and the caller starts a turn of its own from the text. Holds nothing
 * recorded: what waits here is recorded when it lands, or never (a cancelled turn drops it).
 */
import type { ContentBlock } from "@agentclientprotocol/sdk";
import type { TurnSteering } from "../turn/turn-context.ts";

export class SteeringBox implements TurnSteering {
  #open = false;
  #pending: ContentBlock[][] = [];

  /** A turn starts: offers are taken until it ends. `pending`: texts already waiting for it. */
  open(pending: ContentBlock[][] = []): void {
    this.#open = true;
    this.#pending.push(...pending);
  }

  /** Takes `blocks` into the running turn; false when no turn would take it (the box is closed). */
  offer(blocks: ContentBlock[]): boolean {
    if (!this.#open) return false;
    this.#pending.push(blocks);
    return true;
  }

  take(): ContentBlock[][] {
    return this.#pending.splice(0);
  }

  holdsPending(): boolean {
    if (this.#pending.length > 0) return true;
    this.#open = false;
    return false;
  }

  /** The turn has ended: closes the box and hands back what never landed (oldest first). */
  close(): ContentBlock[][] {
    this.#open = false;
    return this.take();
  }
}
