/** The answers offered when a call needs permission, and the rule an "always" answer makes. */
import type { PermissionOption } from "@agentclientprotocol/sdk";
import type { Tool } from "../tools/tool.ts";

const MAX_SCOPE_SHOWN = 80;

/** What an "always" answer covers, as the user reads it: `Bash(npm test)`, or `Edit` for every call. */
export function ruleLabel(tool: Tool, scope: string | undefined): string {
  if (scope === undefined) return tool.name;
  const oneLine = scope.replace(/\s*\n\s*/g, " ");
  return `${tool.name}(${oneLine.length > MAX_SCOPE_SHOWN ? `${oneLine.slice(0, MAX_SCOPE_SHOWN - 1)}…` : oneLine})`;
}

export function permissionOptions(tool: Tool, scope: string | undefined): PermissionOption[] {
  const what = ruleLabel(tool, scope);
  return [
    { optionId: "allow_once", name: "Allow", kind: "allow_once" },
    { optionId: "allow_always", name: `Always allow ${what}`, kind: "allow_always" },
    { optionId: "reject_once", name: "Refuse", kind: "reject_once" },
    { optionId: "reject_always", name: `Always refuse ${what}`, kind: "reject_always" },
  ];
}

/** The answers offered when a call reaches outside the session's directories. */
export function outsideOptions(directories: string[]): PermissionOption[] {
  const where = directories.join(", ");
  return [
    { optionId: "allow_once", name: `Allow this once (outside the workspace: ${where})`, kind: "allow_once" },
    { optionId: "allow_always", name: `Allow ${where} for this session`, kind: "allow_always" },
    { optionId: "reject_once", name: "Refuse", kind: "reject_once" },
  ];
}
