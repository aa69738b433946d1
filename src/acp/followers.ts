/**
 * The sessions this connection follows (`_verbatim/session/attach`): one follower a session, each
 * stopped by a detach, a new attach of its session, or the connection's end.
 */
import { log } from "../shared/log.ts";
import type { Following } from "../core/follow/session-follower.ts";

export type FollowRole = "observer" | "controller";

/**
 * A session followed here: as what, and where the following is; a controller's attachment row
 * (core/follow/kept-attachment.ts), which its prompts name.
 */
export type Followed = { role: FollowRole; following: Following; attachmentId?: string };

type Follower = Followed & { stop: AbortController; done: Promise<void> };

export class Followers {
  readonly #following = new Map<string, Follower>();

  /** Runs `follow` for `sessionId` until it is stopped; a failure ends it with a warning on stderr, never a crash. */
  start(sessionId: string, followed: Followed, follow: (signal: AbortSignal) => Promise<void>): void {
    const stop = new AbortController();
    const done = follow(stop.signal)
      .catch((error: unknown) => {
        if (!stop.signal.aborted) log.warn(`stopped following session ${sessionId}`, error);
      })
      .finally(() => {
        if (this.#following.get(sessionId)?.stop === stop) this.#following.delete(sessionId);
      });
    this.#following.set(sessionId, { ...followed, stop, done });
  }

  /** How `sessionId` is followed here, if it is. */
  of(sessionId: string): Followed | undefined {
    return this.#following.get(sessionId);
  }

  /** Stops following `sessionId` (nothing more is sent for it once this resolves); false if it was not followed. */
  async stop(sessionId: string): Promise<boolean> {
    const follower = this.#following.get(sessionId);
    if (!follower) return false;
    this.#following.delete(sessionId);
    follower.stop.abort();
    await follower.done;
    return true;
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.#following.keys()].map((sessionId) => this.stop(sessionId)));
  }
}
