/**
 * What the user is told about the permission settings just recorded: rules that do not parse
 * (named with their file, ignored; a bad deny makes its tool ask), keys of the wrong shape, a
 * mode verbatim has not (read as `default`), files that could not be read (every call asks), and
 * project allow rules held back because the workspace is not trusted. Never dropped in silence.
 */
import type { PermissionSettingsRead } from "../../journal/facts/index.ts";
import { ruleSetOf, settingsMode } from "./settings-rules.ts";

export type SettingsNotice = { severity: "warning" | "error"; title: string; description: string };

export function settingsNotices(settings: PermissionSettingsRead): SettingsNotice[] {
  const notices: SettingsNotice[] = [];
  const { bad } = ruleSetOf(settings, [], { cwd: settings.cwd, home: settings.home });
  if (bad.length) {
    const n = bad.length;
    notices.push({
      severity: "warning",
      title: `${n} permission rule${n === 1 ? "" : "s"} ignored: ${n === 1 ? "it does" : "they do"} not parse`,
      description: bad
        .map(
          (b) =>
            `${b.source.path}: ${b.decision} "${b.text}": ${b.reason}${b.decision === "deny" ? ` (until it is fixed, ${b.tool ?? "every tool"} asks)` : ""}`,
        )
        .join("\n"),
    });
  }
  const malformed = settings.files.flatMap((f) =>
    (f.malformed ?? []).filter((k) => k !== "permissions.deny" && k !== "permissions").map((k) => `${f.path}: ${k}`),
  );
  if (malformed.length)
    notices.push({
      severity: "warning",
      title: "Permission settings ignored: not of the expected shape",
      description: malformed
        .map((m) =>
          m.endsWith(": sandbox")
            ? `${m} is not of the shape of Claude Code's sandbox settings, so it was ignored`
            : `${m} is not a list of strings (or a string), so it was ignored`,
        )
        .join("\n"),
    });

  const { unknown } = settingsMode(settings);
  if (unknown)
    notices.push({
      severity: "warning",
      title: `defaultMode "${unknown.mode}" is not a verbatim mode: read as "default"`,
      description: `${unknown.path} sets permissions.defaultMode to "${unknown.mode}"; verbatim's modes are default, acceptEdits, plan and bypassPermissions.`,
    });
  if (settings.unread.length)
    notices.push({
      severity: "error",
      title: "A settings file could not be read: every tool asks until it is fixed",
      description: settings.unread.map((u) => `${u.path} was not read: ${u.reason}`).join("\n"),
    });
  const held = settings.trusted
    ? []
    : settings.files.filter(
        (f) => (f.scope === "project" || f.scope === "local") && (f.allow.length || f.additionalDirectories.length),
      );
  if (held.length)
    notices.push({
      severity: "warning",
      title: "Project allow rules not applied: this workspace is not trusted",
      description: [
        ...held.map((f) => `${f.path}: ${[...f.allow, ...f.additionalDirectories].join(", ")}`),
        `Deny and ask rules apply. To apply the allow rules, trust the workspace with \`verbatim trust ${settings.cwd}\`.`,
      ].join("\n"),
    });
  return notices;
}
