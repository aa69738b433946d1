/**
 * How a turn ended, in a person's words. ACP's stop reasons are enum names for programs
 * (`--json` keeps them); a person at a terminal reads these instead.
 */
import type { StopReason } from "@agentclientprotocol/sdk";

const WORDS: Record<StopReason, string> = {
  end_turn: "the turn ended",
  cancelled: "cancelled",
  max_tokens: "stopped: the answer reached the model's output limit",
  max_turn_requests: "stopped: the turn reached its request limit",
  refusal: "stopped: the model refused",
};

export const stopReasonWords = (reason: StopReason): string => WORDS[reason];
