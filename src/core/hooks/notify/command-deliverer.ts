/**
 * Delivering lifecycle events through the host's notify command: `/bin/sh -c COMMAND` with the
 * event on stdin, in its own process group, killed whole on timeout or when the session closes.
 * Best effort: a failing command is logged, never retried.
 */
import { log } from "../../../shared/log.ts";
import { runCommand } from "../run-command.ts";
import type { Deliver } from "./lifecycle-notifier.ts";

/** A notify command gets this long per event. */
const NOTIFY_TIMEOUT_MS = 10_000;

export function commandDeliverer(
  command: string,
  options: { cwd: string; env: Record<string, string | undefined>; timeoutMs?: number },
): Deliver {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(options.env)) if (value !== undefined) env[key] = value;
  return async (payload, signal) => {
    const result = await runCommand({
      argv: ["/bin/sh", "-c", command],
      cwd: options.cwd,
      env,
      stdin: payload,
      timeoutMs: options.timeoutMs ?? NOTIFY_TIMEOUT_MS,
      signal,
    });
    if (result.spawnError || result.stopped || result.exitCode !== 0) {
      log.debug("the notify command did not succeed", {
        exitCode: result.exitCode,
        stopped: result.stopped,
        error: result.spawnError,
      });
    }
  };
}
