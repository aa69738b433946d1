/** The visible lines verbatim adds to a card. Pure text, recorded facts in, no clock. */
import type { PermissionOption } from "@agentclientprotocol/sdk";
import type { PermissionOutcome } from "../journal/facts/index.ts";

const kindWords: Record<PermissionOption["kind"], string> = {
  allow_once: "allowed once",
  allow_always: "always allowed",
  reject_once: "refused",
  reject_always: "always refused",
};

export function permissionLine(options: PermissionOption[], outcome: PermissionOutcome): string {
  if (outcome.outcome === "cancelled") return "Permission: the question was cancelled.";
  const option = options.find((o) => o.optionId === outcome.optionId);
  if (!option) return `Permission: answered with "${outcome.optionId}", which was not offered; treated as refused.`;
  return `Permission: ${option.name} (${kindWords[option.kind]}).`;
}

const refusedBy: Record<string, string> = {
  user: "refused by the user",
  hook: "blocked by a hook",
  mode: "not allowed in this mode",
  cancel: "cancelled before it ran",
  rule: "refused by a saved permission rule",
};

export function refusalLine(by: string, reason: string): string {
  return `Not run: ${refusedBy[by] ?? by}${reason ? ` — ${reason}` : ""}.`;
}
