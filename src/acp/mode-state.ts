/** A session's modes as `session/new`, `session/load` and `session/resume` answer them. */
import type { SessionModeState } from "@agentclientprotocol/sdk/unstable";
import type { SessionStateFold } from "../replay/state.ts";

export function modeState(state: Pick<SessionStateFold, "modeId" | "availableModes">): SessionModeState {
  return { currentModeId: state.modeId, availableModes: state.availableModes };
}
