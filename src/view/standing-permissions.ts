/**
 * A session's standing permissions in words: what it may do without asking, as its facts say
 * (its "always" rules, the directories granted to it, its additional directories, a mode that
 * lets calls run unasked). `verbatim show` lists them after the transcript, and `verbatim import`
 * names each one it drops or keeps. Every value came from a journal (or a file), so each is drawn
 * quoted, through `visible`. Pure.
 */
import { visible } from "./visible-text.ts";

export type StandingPermissions = {
  rules: readonly { toolName: string; scope?: string; decision: "allow" | "deny" }[];
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
        `the rule ${quoted(`${r.decision === "allow" ? "Always allow" : "Always refuse"} ${ruleLabel(r.toolName, r.scope)}`)}`,
    ),
    ...standing.grantedDirectories.map((d) => `the grant of ${quoted(d)} (file tools may use it)`),
    ...standing.additionalDirectories.map((d) => `the additional directory ${quoted(d)} (file tools may use it)`),
  ];
}

/** The section `show` ends with: a heading and one line per standing permission; "" when there are none. */
export function standingSection(standing: StandingPermissions): string {
  const phrases = standingPhrases(standing);
  if (phrases.length === 0) return "";
  return `\nstanding permissions (what this session may do without asking):\n${phrases.map((p) => `  ${p}\n`).join("")}`;
}
