/**
 * Running the handlers selected for one event occurrence: all start together (at most
 * `MAX_CONCURRENT` at a time), each in its own process group with its own timeout, each
 * classified when it exits. The results come back in configuration order whatever the order in
 * which the handlers finished.
 */
import { classify, type HandlerResult } from "./classify.ts";
import type { CommandHandler } from "./config.ts";
import type { Env } from "./config-files.ts";
import { runCommand } from "./run-command.ts";
import { defined } from "../../shared/defined.ts";

const MAX_CONCURRENT = 8;

export type RunOptions = {
  /** The environment hooks inherit (verbatim's own). */
  env: Env;
  /** The session's working directory: the hooks' cwd and `CLAUDE_PROJECT_DIR`. */
  cwd: string;
  sessionId: string;
  signal?: AbortSignal;
  /** SIGTERM-to-SIGKILL grace on timeout or cancel. */
  graceMs?: number;
  /** Caps every handler's timeout (SessionEnd's budget), in seconds. */
  maxTimeoutSec?: number;
  /** Variables for this event only (SessionStart's `CLAUDE_ENV_FILE`). */
  extraEnv?: Record<string, string>;
};

export async function runHandlers(
  handlers: { handler: CommandHandler; hookRunId: string }[],
  payload: string,
  options: RunOptions,
): Promise<HandlerResult[]> {
  const env = hookEnv(options);
  let active = 0;
  const waiting: (() => void)[] = [];
  const slot = async () => {
    while (active >= MAX_CONCURRENT) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
  };
  const release = () => {
    active--;
    waiting.shift()?.();
  };
  const results = await Promise.all(
    handlers.map(async ({ handler, hookRunId }) => {
      await slot();
      try {
        const timeoutSec = Math.min(handler.timeoutSec, options.maxTimeoutSec ?? Infinity);
        const result = await runCommand({
          argv: argvOf(handler, options.cwd),
          cwd: options.cwd,
          env,
          stdin: payload,
          timeoutMs: Math.round(timeoutSec * 1000),
          ...defined({ signal: options.signal, graceMs: options.graceMs }),
        });
        // A capped handler's timeout is reported as the one it ran under.
        return classify(timeoutSec === handler.timeoutSec ? handler : { ...handler, timeoutSec }, hookRunId, result);
      } finally {
        release();
      }
    }),
  );
  return results.sort((a, b) => a.handler.displayOrder - b.handler.displayOrder);
}

/** Shell form runs under `/bin/sh -c` (not a login shell: no profile output on stdout). */
function argvOf(handler: Pick<CommandHandler, "command" | "args">, projectDir: string): string[] {
  if (!handler.args) return ["/bin/sh", "-c", handler.command];
  const substitute = (s: string) =>
    s.replaceAll("${CLAUDE_PROJECT_DIR}", projectDir).replaceAll("${VERBATIM_PROJECT_DIR}", projectDir);
  return [substitute(handler.command), ...handler.args.map(substitute)];
}

/** verbatim's environment, less telemetry exporters, plus where the project is. */
function hookEnv(options: RunOptions): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(options.env)) {
    if (value !== undefined && !key.startsWith("OTEL_")) env[key] = value;
  }
  env.CLAUDE_PROJECT_DIR = options.cwd;
  env.VERBATIM_PROJECT_DIR = options.cwd;
  env.VERBATIM_SESSION_ID = options.sessionId;
  return { ...env, ...options.extraEnv };
}
