/**
 * `verbatim doctor`'s sandbox line: whether commands run in the OS sandbox here, and if not, why
 * and what to install. Starts the runtime as the first command of a session would (one
 * sandboxed `true`), so it says what a session will find.
 */
import { hostname } from "node:os";
import { isTrusted } from "../core/hooks/trust.ts";
import { readPermissionSettings } from "../core/permissions/settings-rules.ts";

type Env = Record<string, string | undefined>;
type Check = { check: string; status: "ok" | "warn" | "fail"; message: string };

export async function sandboxCheck(env: Env, cwd: string): Promise<Check> {
  const check = "sandbox";
  if (env.VERBATIM_SANDBOX === "off")
    return { check, status: "warn", message: "off (VERBATIM_SANDBOX=off): commands run unconfined, each asks first" };
  const run = await import("../core/sandbox/sandbox-run.ts");
  const inForce = run.sandboxInForce(readPermissionSettings(env, cwd, isTrusted(env, cwd), hostname()));
  if (!inForce.enabled)
    return {
      check,
      status: "warn",
      message: `off (${inForce.disabledBy ?? "a settings file"} sets sandbox.enabled to false): commands run unconfined, each asks first`,
    };
  const start = await run.startSandbox();
  if (!start.ok)
    return {
      check,
      status: "warn",
      message: `${start.reason}; commands run unconfined, each asks first${start.install ? `. Install: apt-get install ${start.install} (Debian, Ubuntu) or your system's ${start.install} packages` : ""}`,
    };
  await start.manager.reset().catch(() => undefined);
  return {
    check,
    status: "ok",
    message: `commands run in the OS sandbox (${process.platform === "darwin" ? "Seatbelt" : "bubblewrap, seccomp, a filtering network proxy"})`,
  };
}
