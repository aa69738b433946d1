/**
 * The adapters' shared guarantee: a provider stream never throws once called and ends with
 * exactly one final event (`done` or `error`). Whatever the SDK throws becomes the final error
 * event; a stream that ends without a final event ended early (a dropped connection).
 */
import { toErrorEvent, type Failure } from "./retry-policy.ts";
import type { ProviderEvent } from "./types.ts";

const ENDED_EARLY = "the connection closed before the response finished";

export async function* guardStream(
  run: () => AsyncIterable<ProviderEvent>,
  toFailure: (error: unknown) => Failure,
  signal: AbortSignal,
): AsyncGenerator<ProviderEvent> {
  try {
    for await (const event of run()) {
      // Events the SDK had already buffered are not shown once the turn is cancelled.
      if (signal.aborted) {
        yield toErrorEvent({ kind: "cancelled" });
        return;
      }
      yield event;
      if (event.type === "done" || event.type === "error") return;
    }
    yield signal.aborted
      ? toErrorEvent({ kind: "cancelled" })
      : toErrorEvent({ kind: "connection", message: ENDED_EARLY });
  } catch (error) {
    yield toErrorEvent(signal.aborted ? { kind: "cancelled" } : toFailure(error));
  }
}
