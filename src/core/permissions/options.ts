/** The answers offered when a call needs permission, and the rules an "always" answer makes. */
import type { PermissionOption } from "@agentclientprotocol/sdk";
import type { Tool } from "../tools/tool.ts";
import { suggestedCommandRule } from "./rules/command-match.ts";
import type { CallSubject } from "./rules/rule-set.ts";

const MAX_SCOPE_SHOWN = 80;
/** Claude Code's cap on the rules one "don't ask again" answer to a compound command saves. */
const MAX_RULES = 5;

/** The option that keeps the rule in the project's local settings file ("for this project"). */
export const PROJECT_OPTION_ID = "allow_always_project";

/** What an "always" answer covers, as the user reads it: `Bash(npm test)`, or `Edit` for every call. */
export function ruleLabel(tool: Tool, scope: string | undefined): string {
  if (scope === undefined) return tool.name;
  const oneLine = scope.replace(/\s*\n\s*/g, " ");
  return `${tool.name}(${oneLine.length > MAX_SCOPE_SHOWN ? `${oneLine.slice(0, MAX_SCOPE_SHOWN - 1)}…` : oneLine})`;
}

/**
 * The rules an "always allow" answer adds, as a user would write them: one per command of the
 * command line (`Bash(npm run test:*)`, at most five), `WebFetch(domain:host)`, or the tool's
 * name. None when the command line could not be read (it is asked about whole, every time).
 */
export function suggestedRules(tool: Tool, subject: CallSubject): string[] {
  if (subject.command) {
    if ("unreadable" in subject.command) return [];
    const rules = subject.command.parts.map((part) => `Bash(${suggestedCommandRule(part)})`);
    const unique = [...new Set(rules)];
    return unique.length <= MAX_RULES ? unique : [];
  }
  if (tool.name === "WebFetch") return subject.host ? [`WebFetch(domain:${subject.host})`] : [];
  return tool.ruleScope ? [] : [tool.name];
}

/**
 * The options of a question about a call: allow once; always allow for this session and (when the
 * workspace is trusted, so that its local settings hold) for this project, each naming the rules
 * it adds; refuse; always refuse (this exact call, for this session).
 */
export function permissionOptions(
  tool: Tool,
  scope: string | undefined,
  rules: readonly string[],
  project: boolean,
): PermissionOption[] {
  const what = rules.length ? rules.join(", ") : ruleLabel(tool, scope);
  return [
    { optionId: "allow_once", name: "Allow", kind: "allow_once" },
    { optionId: "allow_always", name: `Always allow ${what} for this session`, kind: "allow_always" },
    ...(project && rules.length
      ? [
          {
            optionId: PROJECT_OPTION_ID,
            name: `Always allow ${what} in this project (.claude/settings.local.json)`,
            kind: "allow_always" as const,
          },
        ]
      : []),
    { optionId: "reject_once", name: "Refuse", kind: "reject_once" },
    { optionId: "reject_always", name: `Always refuse ${ruleLabel(tool, scope)}`, kind: "reject_always" },
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
