/** How a load hands a replay cache's lines to the client: at the client's pace (core/replay-cache/cached-run.ts reads them). */
import { throwIfCancelled } from "./errors.ts";
import type { UpdateSender } from "./update-sender.ts";
import { yieldToEventLoop } from "../shared/event-loop.ts";

/**
 * Cached sends (of about 128 KB each) waiting for the client to read, past what stdout lets wait
 * (stdout-writer.ts, BACKLOG_BYTES), before the load waits for the client.
 */
const SENDS_IN_FLIGHT = 4;

/**
 * The replay sink's `lines` (client-replay-sink.ts) through `sender`: a few sends in flight at
 * most (the client reads at its pace, and memory stays bounded), a turn of the event loop after
 * each send (the transport writes what it holds to the client while the next rows are read, and
 * input is read: a `$/cancel_request`), and none once `signal` has cancelled the load (it throws
 * its error).
 */
export function pacedLines(
  sender: UpdateSender,
  signal: AbortSignal | undefined,
): (lines: readonly (string | Uint8Array)[]) => Promise<void> {
  return (lines) => {
    throwIfCancelled(signal);
    sender.sendLines(lines);
    return sender.pressure(SENDS_IN_FLIGHT)?.then(yieldToEventLoop) ?? yieldToEventLoop();
  };
}
