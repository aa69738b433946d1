/**
 * The port a stored session is replayed through (stored-replay.ts): the wire implements it for a
 * load (src/acp/client-replay-sink.ts writes to the client's connection, at the client's pace), the
 * command line for `show` and `watch` (drawingSink), so that the reading knows no protocol. The
 * engine hands on what the projection shows; it builds no update itself.
 */
import type { Projector } from "../../replay/project.ts";

/** One update the projection shows (replay/project.ts), handed on as it is. */
export type ProjectedUpdate = ReturnType<Projector["apply"]>[number];

export type ReplaySink = {
  /**
   * A replay cache row's lines, already serialized (only a sink that writes lines takes the cache's run), to be written as they are and in order with
   * every update; a promise to wait on before the next lines (the client's pace), or undefined.
   */
  lines?(lines: readonly (string | Uint8Array)[]): Promise<void> | undefined;
  /**
   * One projected update, after everything handed on before it; `position`: the journal record it
   * shows, on those a follower sends past the history (a load's and the history's carry none).
   */
  update(update: ProjectedUpdate, position?: number): void;
  /** A follower's: the session was rewound at `position`; the client drops the entries named. */
  rewound?(retracted: { messageIds: string[]; toolCallIds: string[] }, position: number): void;
  /** Backpressure: a promise to wait on while the client has not taken what was handed on; undefined when it keeps up. */
  pressure(): Promise<void> | undefined;
  /** Throws the wire's error once the load was cancelled; the load calls it between records. */
  stopIfCancelled(): void;
  /**
   * The replay is whole: resolves once everything handed on is written (the wire may append its
   * own marker first), and throws as `stopIfCancelled` does if the load was cancelled meanwhile.
   */
  end(): Promise<void>;
};

/** A sink that draws each update as it comes (the command line's): no pace, no cancel, no cached lines. */
export function drawingSink(draw: (update: ProjectedUpdate) => void): ReplaySink {
  return {
    update: draw,
    pressure: () => undefined,
    stopIfCancelled: () => undefined,
    end: async () => undefined,
  };
}
