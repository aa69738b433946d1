/**
 * A session's standing permissions in words: what it may do without asking, as its facts say
 * (its "always" rules, the directories granted to it, its additional directories, a mode that
 * lets calls run unasked). `verbatim show` lists them after the transcript, and `verbatim import`
 * names each one it drops or keeps. Every value came from a journal (or a file), so each is drawn
 * quoted, through `visible`. Pure.
 */
import { visible } from "./visible-text.ts";

export type StandingPermissions = {
  /** The session's "always" answers: `rule` as a user writes it (newer answers), else the tool and its exact scope. */
  rules: readonly { toolName: string; scope?: string; decision: "allow" | "deny"; rule?: string; savedTo?: string }[];
  /** The settings files' rules as the session last recorded them, each with its file; `held`: waiting for trust. */
  settingsRules?: readonly { decision: "allow" | "ask" | "deny"; text: string; path: string; held?: boolean }[];
  grantedDirectories: readonly string[];
  additionalDirectories: readonly string[];
  /** The session's mode, when it lets calls run without asking (else undefined). */
  mode?: { id: string; name: string };
};

const MAX_SCOPE_SHOWN = 80;

/** A value on one line: quoted as JSON (so a newline or tab in it shows as `\n`, `\t`), control characters escaped. */
export const quoted = (text: string): string => visible(JSON.stringify(text));

/** What an "always" rule covers as its question named it: `Bash(npm test)`, or `Bash` for every call. */
function ruleLabel(toolName: string, scope: string | undefined): string {
  if (scope === undefined) return toolName;
  const oneLine = scope.replace(/\s*\n\s*/g, " ");
  return `${toolName}(${oneLine.length > MAX_SCOPE_SHOWN ? `${oneLine.slice(0, MAX_SCOPE_SHOWN - 1)}…` : oneLine})`;
}

/** One phrase per standing permission, e.g. `the rule "Always allow Bash"`, in the order they hold. */
export function standingPhrases(standing: StandingPermissions): string[] {
  return [
    ...(standing.mode
      ? [
          `the mode ${quoted(standing.mode.name)} (${standing.mode.id === "acceptEdits" ? "edits run" : "every call runs"} without asking)`,
        ]
      : []),
    ...standing.rules.map(
      (r) =>
        `the rule ${quoted(`${r.decision === "allow" ? "Always allow" : "Always refuse"} ${r.rule ?? ruleLabel(r.toolName, r.scope)}`)}${r.savedTo ? ` (also saved to ${quoted(r.savedTo)})` : ""}`,
    ),
    ...standing.grantedDirectories.map((d) => `the grant of ${quoted(d)} (file tools may use it)`),
    ...standing.additionalDirectories.map((d) => `the additional directory ${quoted(d)} (file tools may use it)`),
  ];
}

/**
 * The sections `show` ends with: the standing permissions, then the settings files' rules in force
 * (each with its file); "" when there are none.
 */
export function standingSection(standing: StandingPermissions): string {
  const phrases = standingPhrases(standing);
  const standingPart = phrases.length
    ? `\nstanding permissions (what this session may do without asking):\n${phrases.map((p) => `  ${p}\n`).join("")}`
    : "";
  const rules = standing.settingsRules ?? [];
  const rulesPart = rules.length
    ? `\npermission rules from the settings files (as last recorded):\n${rules
        .map(
          (r) =>
            `  ${r.decision} ${quoted(r.text)} from ${quoted(r.path)}${r.held ? " (not applied: the workspace was not trusted)" : ""}\n`,
        )
        .join("")}`
    : "";
  return standingPart + rulesPart;
}
