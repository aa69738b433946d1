/**
 * What a client said of itself in `initialize`, with what follows from it for this connection,
 * derived once when `initialize` is answered and handed down as it is (never re-derived).
 */
import type { ClientCapabilities, Implementation } from "@agentclientprotocol/sdk/unstable";
import { replayCapabilities, type ReplayCapabilities } from "../replay/cache-key.ts";
import { wantsReplayEnd } from "./air-replay-end.ts";

export type ClientProfile = {
  readonly capabilities: ClientCapabilities;
  /** The client's `clientInfo`, if it sent one. */
  readonly info: Implementation | undefined;
  /** The capabilities that change what a replay sends (the replay cache's key: replay/cache-key.ts). */
  readonly replay: ReplayCapabilities;
  /** A load's replay ends with JetBrains AIR's marker (air-replay-end.ts). */
  readonly wantsReplayEnd: boolean;
};

/** The profile of a client that sent `capabilities` and `info` (none before its `initialize`). */
export function clientProfile(capabilities: ClientCapabilities = {}, info?: Implementation): ClientProfile {
  return Object.freeze({
    capabilities,
    info,
    replay: Object.freeze(replayCapabilities(capabilities)),
    wantsReplayEnd: wantsReplayEnd(info, capabilities),
  });
}
