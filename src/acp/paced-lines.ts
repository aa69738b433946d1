/** How a load hands a replay cache's lines to the client: at the client's pace (core/replay-cache/cached-run.ts reads them). */
import { throwIfCancelled } from "./errors.ts";
import type { UpdateSender } from "./update-sender.ts";
import { yieldToEventLoop } from "../shared/event-loop.ts";

/** Cached sends (of about 256 KB each) in flight before the load waits for the client to read. */
const SENDS_IN_FLIGHT = 4;

/**
 * The replay sink's `lines` (client-replay-sink.ts) through `sender`: a few sends in flight at
 * most (the client reads at its pace, and memory stays bounded), a turn of the event loop now and
 * then (input is read: a `$/cancel_request`), and none once `signal` has cancelled the load (it
 * throws its error).
 */
export function pacedLines(
  sender: UpdateSender,
  signal: AbortSignal | undefined,
): (lines: readonly (string | Uint8Array)[]) => Promise<void> | undefined {
  let sends = 0;
  return (lines) => {
    throwIfCancelled(signal);
    sender.sendLines(lines);
    const pressure = sender.pressure(SENDS_IN_FLIGHT);
    if (++sends % 16 !== 0) return pressure;
    return (pressure ?? Promise.resolve()).then(yieldToEventLoop);
  };
}
