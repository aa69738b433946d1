/**
 * Running a command in the client's terminal (ACP `terminal/*`): the terminal is shown in the
 * card while it runs; on cancel it is killed; at its timeout `onTimeout` may take it over (the
 * session's jobs run it on in the background, terminal and all), else it is killed; its output is
 * then read and the terminal released. The caller replaces the terminal in the card with that
 * output as text.
 */
import type { ClientTerminal, ExitStatus, ToolHost } from "../tool.ts";
import type { CommandEnd } from "./local-process.ts";
import { defined } from "../../../shared/defined.ts";

export async function runInTerminal(options: {
  host: Required<Pick<ToolHost, "createTerminal">>;
  command: string;
  cwd: string;
  timeoutMs: number;
  outputByteLimit: number;
  signal: AbortSignal;
  /** Called once the terminal exists, to show it in the card. */
  onTerminal(terminalId: string): void;
  /** Takes the running terminal over at the timeout; false (or absent) to have it killed. */
  onTimeout?(terminal: ClientTerminal): Promise<boolean>;
}): Promise<(CommandEnd & { output: string; truncated: boolean }) | { moved: true }> {
  const terminal = await options.host.createTerminal({
    command: "bash",
    args: ["-c", options.command],
    cwd: options.cwd,
    outputByteLimit: options.outputByteLimit,
  });
  let moved = false;
  try {
    options.onTerminal(terminal.id);
    const ended = await waitOrStop(terminal, options.timeoutMs, options.signal, async () => {
      moved = (await options.onTimeout?.(terminal)) ?? false;
      return moved;
    });
    if ("moved" in ended) return { moved: true };
    const { output, truncated, exitStatus } = await terminal.output();
    const status = exitStatus ?? ended.status ?? {};
    return {
      exitCode: status.exitCode ?? null,
      signal: status.signal ?? null,
      ...defined({ stopped: ended.stopped }),
      output,
      truncated,
    };
  } finally {
    // A terminal taken over is the job's to release.
    if (!moved) await terminal.release().catch(() => undefined);
  }
}

async function waitOrStop(
  terminal: ClientTerminal,
  timeoutMs: number,
  signal: AbortSignal,
  takeOver: () => Promise<boolean>,
): Promise<{ status?: ExitStatus; stopped?: "timeout" | "cancel" } | { moved: true }> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const stop = new Promise<"timeout" | "cancel">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), timeoutMs);
    onAbort = () => resolve("cancel");
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    const first = await Promise.race([
      terminal.waitForExit().then((status) => ({ status })),
      stop.then((stopped) => ({ stopped })),
    ]);
    if ("status" in first) return { status: first.status };
    if (first.stopped === "timeout" && (await takeOver())) return { moved: true };
    await terminal.kill().catch(() => undefined);
    const status = await terminal.waitForExit().catch(() => undefined);
    return { stopped: first.stopped, ...defined({ status }) };
  } finally {
    clearTimeout(timer);
    if (onAbort) signal.removeEventListener("abort", onAbort);
  }
}
