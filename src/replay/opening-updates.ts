/**
 * What a client needs to draw a session it is not sent a replay of (`session/resume`, a fork):
 * its slash commands and its context usage, as its facts left them, which a load's replay ends
 * with (the last `available_commands_update` and `usage_update` it sends). The response carries
 * the modes and config options. Pure: derived from the state folded from the facts.
 */
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { SessionStateFold } from "./state.ts";

export function openingUpdates(
  state: Pick<SessionStateFold, "commands" | "contextUsage" | "sessionCost">,
): SessionUpdate[] {
  const updates: SessionUpdate[] = [];
  if (state.commands) updates.push({ sessionUpdate: "available_commands_update", availableCommands: state.commands });
  if (state.contextUsage) {
    const { used, size } = state.contextUsage;
    updates.push({
      sessionUpdate: "usage_update",
      used,
      size,
      ...(state.sessionCost ? { cost: state.sessionCost } : {}),
    });
  }
  return updates;
}
