/**
 * JetBrains AIR waits for a marker that a `session/load` replay is whole: after the last replayed
 * update, one `session_info_update` whose `_meta.jetbrains.air.loadReplayEnd` is true (the shape
 * of the published claude-agent-acp's `dist/air-extension.js`). Only AIR is sent it; it is never
 * journaled (it marks the end of one replay, not a fact of the session).
 */
import type { ClientCapabilities, Implementation, SessionUpdate } from "@agentclientprotocol/sdk/unstable";

/**
 * AIR is known by its `clientInfo` (a name or title naming JetBrains AIR), or by the AIR
 * extension's own declaration: `clientCapabilities._meta.jetbrains.air.capabilities` listing
 * `loadReplayEnd`, as the published adapter checks.
 */
export function wantsReplayEnd(
  clientInfo: Implementation | null | undefined,
  capabilities: ClientCapabilities,
): boolean {
  const names = `${clientInfo?.name ?? ""} ${clientInfo?.title ?? ""}`.toLowerCase();
  if (names.includes("jetbrains") && /\bair\b/.test(names)) return true;
  const air = record(record(record(capabilities._meta).jetbrains).air);
  return Array.isArray(air.capabilities) && air.capabilities.includes("loadReplayEnd");
}

/** The marker. No `title` and no `updatedAt`: a `null` there would clear them. */
export const replayEnd = (): SessionUpdate => ({
  sessionUpdate: "session_info_update",
  _meta: { jetbrains: { air: { version: 1, loadReplayEnd: true } } },
});

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
