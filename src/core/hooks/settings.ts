/**
 * Process-wide hook settings: the environment hooks inherit and read their configuration from,
 * whether every workspace is trusted (`--trust`), and the host's notify command
 * (`VERBATIM_NOTIFY_COMMAND`, else `notify.command` in the user config; with neither,
 * lifecycle notifications are off).
 */
import { userConfigRoots } from "../confinement/own-files.ts";
import { readJsonObject, userConfigPath, type Env } from "./config-files.ts";

export type HookSettings = {
  env: Env;
  /** `--trust`: project hooks run in every workspace this process opens. */
  trustAll: boolean;
  notifyCommand?: string;
  /** SIGTERM-to-SIGKILL grace for hooks stopped on timeout or cancel (default 2 s). */
  graceMs?: number;
  /** The longest SessionEnd hooks may hold up a session's close, whatever their own timeouts (default 60 s). */
  sessionEndCapSec?: number;
};

/** Claude Code's cap on SessionEnd hooks (hooks.md §5: a budget raised to the highest timeout, at most 60 s). */
export const SESSION_END_CAP_SEC = 60;

export function hookSettings(env: Env, options: { trustAll?: boolean } = {}): HookSettings {
  const merged = env === process.env ? env : { ...process.env, ...env };
  const notifyCommand = merged.VERBATIM_NOTIFY_COMMAND || userNotifyCommand(merged);
  return { env: merged, trustAll: options.trustAll ?? false, ...(notifyCommand ? { notifyCommand } : {}) };
}

function userNotifyCommand(env: Env): string | undefined {
  const file = readJsonObject(userConfigPath(env), userConfigRoots(env));
  if (file.state !== "ok") return undefined;
  const notify = file.value.notify;
  if (typeof notify !== "object" || notify === null) return undefined;
  const command = (notify as Record<string, unknown>).command;
  return typeof command === "string" && command.trim() !== "" ? command : undefined;
}
