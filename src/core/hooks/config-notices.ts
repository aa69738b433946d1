/**
 * What the user is told about hook configuration that does not run as written: problems in the
 * files, and project hooks held back because the workspace is not trusted. Shown as notices,
 * never dropped in silence.
 */
import { commandText, type HookConfig } from "./config.ts";

export type ConfigNotice = { severity: "warning" | "error"; title: string; description: string };

export function configNotices(config: HookConfig, cwd: string): ConfigNotice[] {
  const notices: ConfigNotice[] = [];
  if (config.untrusted.length > 0) {
    const n = config.untrusted.length;
    notices.push({
      severity: "warning",
      title: `${n} project hook${n === 1 ? "" : "s"} not run: this workspace is not trusted`,
      description: [
        ...config.untrusted.map((h) => `${h.event}: ${commandText(h)} (${h.source.path})`),
        `To run project hooks here, trust the workspace with \`verbatim trust ${cwd}\`, or start verbatim with --trust.`,
      ].join("\n"),
    });
  }
  if (config.problems.length > 0) {
    const n = config.problems.length;
    notices.push({
      severity: config.problems.some((p) => p.severity === "error") ? "error" : "warning",
      title: `Hook configuration: ${n} problem${n === 1 ? "" : "s"}`,
      description: config.problems.map((p) => p.text).join("\n"),
    });
  }
  return notices;
}
