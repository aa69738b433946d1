/**
 * `verbatim doctor`'s permission checks: the rules in force for the workspace, each file with its
 * rules (deny, ask, allow), and what does not hold as written (a rule that does not parse, a
 * project's allow rules waiting for trust, a mode verbatim has not, a file it could not read).
 */
import { hostname } from "node:os";
import { isTrusted } from "../core/hooks/trust.ts";
import { settingsNotices } from "../core/permissions/settings-notices.ts";
import { readPermissionSettings } from "../core/permissions/settings-rules.ts";

type Env = Record<string, string | undefined>;
type Check = { check: string; status: "ok" | "warn" | "fail"; message: string };

export function permissionChecks(env: Env, cwd: string): Check[] {
  const settings = readPermissionSettings(env, cwd, isTrusted(env, cwd), hostname());
  const checks: Check[] = settings.files.map((file) => {
    const rules = (["deny", "ask", "allow"] as const).flatMap((d) => file[d].map((text) => `${d} ${text}`));
    return {
      check: "permission rules",
      status: "ok",
      message: `${file.path} (${file.scope}): ${rules.length ? rules.join(", ") : "no rules"}${file.defaultMode ? `; defaultMode ${file.defaultMode}` : ""}`,
    };
  });
  for (const notice of settingsNotices(settings))
    checks.push({ check: "permission rules", status: "warn", message: `${notice.title}: ${notice.description}` });
  if (checks.length === 0)
    checks.push({ check: "permission rules", status: "ok", message: "no settings file sets any" });
  return checks;
}
