/**
 * The wire's side of a load's replay (core/session/replay-sink.ts): the session's updates go to
 * the client through the connection's update sender, cached lines at the client's pace
 * (paced-lines.ts), JetBrains AIR's marker last (air-replay-end.ts), and a `$/cancel_request`
 * (`signal`) stops the load with the SDK's cancelled error.
 */
import type { ReplaySink } from "../core/session/replay-sink.ts";
import { replayEnd } from "./air-replay-end.ts";
import type { ClientProfile } from "./client-profile.ts";
import { throwIfCancelled } from "./errors.ts";
import { pacedLines } from "./paced-lines.ts";
import type { UpdateSender } from "./update-sender.ts";

export function clientReplaySink(
  sender: UpdateSender,
  sessionId: string,
  profile: ClientProfile,
  signal: AbortSignal | undefined,
): ReplaySink {
  return {
    lines: pacedLines(sender, signal),
    update: (update) => sender.send(sessionId, update),
    pressure: () => sender.pressure(),
    stopIfCancelled: () => throwIfCancelled(signal),
    end: async () => {
      if (profile.wantsReplayEnd) sender.send(sessionId, replayEnd());
      await sender.flush();
      throwIfCancelled(signal);
    },
  };
}
