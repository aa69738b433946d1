/**
 * A foreground command that may move to the background at its timeout (Claude Code's behaviour
 * since 2.0.19): it runs as a JobProcess, and at the timeout `onTimeout` may take it over (the
 * session's jobs adopt it, output and all). A command not taken over is killed at its timeout,
 * and a cancel always kills it, as local-process.ts does.
 */
import { defined } from "../../../shared/defined.ts";
import type { CommandEnd } from "./local-process.ts";
import { JobProcess } from "./job-process.ts";

export type MovableEnd = { end: CommandEnd } | { moved: true };

/**
 * Whether a command moves to the background at its timeout rather than being killed. As Claude
 * Code: not a command that starts with `sleep` (a wait the model asked for), and not one that runs
 * `git` (a hung git holds the repository's lock). Claude Code also kills compounds its shell parser
 * cannot read; verbatim has no shell parser yet, so those move like any other.
 */
export function movesAtTimeout(command: string): boolean {
  if (/^\s*sleep(\s|$)/.test(command)) return false;
  return !/(^|[\s;&|(`]|\$\()git(\s|$)/.test(command);
}

export async function runMovable(options: {
  command: string;
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  signal: AbortSignal;
  onOutput(chunk: string): void;
  /** Takes the running command over at its timeout; false to have it killed. */
  onTimeout(process: JobProcess): Promise<boolean>;
}): Promise<MovableEnd> {
  const process = new JobProcess(options);
  process.sink = options.onOutput;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const timedOut = new Promise<"timeout">((done) => {
    timer = setTimeout(() => done("timeout"), options.timeoutMs);
  });
  const cancelled = new Promise<"cancel">((done) => {
    onAbort = () => done("cancel");
    if (options.signal.aborted) onAbort();
    else options.signal.addEventListener("abort", onAbort, { once: true });
  });
  let moved = false;
  try {
    const first = await Promise.race([process.ended, timedOut, cancelled]);
    if (first === "cancel" || first === "timeout") {
      moved = first === "timeout" && (await options.onTimeout(process));
      if (moved) return { moved: true };
      await process.stop();
      const end = await process.ended;
      return { end: { ...end, ...defined({ stopped: first }) } };
    }
    return { end: first };
  } finally {
    clearTimeout(timer);
    if (onAbort) options.signal.removeEventListener("abort", onAbort);
    // Nothing is reported after the result: output still arriving from background children is dropped.
    if (!moved) process.sink = () => undefined;
  }
}
