/**
 * Running a command as a local process: `bash -c` in its own process group (a new session), so
 * that a cancel or a timeout kills the command and everything it started, background children
 * included. Output (stdout and stderr, interleaved) is streamed to `onOutput`.
 */
import { log } from "../../../log.ts";
import { killGroup, ProcessTree } from "../../process-group.ts";
import { defined } from "../../../defined.ts";

export type CommandEnd = { exitCode: number | null; signal: string | null; stopped?: "timeout" | "cancel" };

/** After the command exits, how long to keep reading output still in the pipe. */
const DRAIN_MS = 250;

export async function runLocal(options: {
  command: string;
  cwd: string;
  /** The whole environment of the command (see command-env.ts). */
  env: Record<string, string>;
  timeoutMs: number;
  signal: AbortSignal;
  onOutput(chunk: string): void;
}): Promise<CommandEnd> {
  // `exec 2>&1` first, so stderr interleaves with stdout in one stream, in order.
  const child = Bun.spawn(["bash", "-c", `exec 2>&1\n${options.command}`], {
    cwd: options.cwd,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    detached: true,
    env: options.env,
  });
  let stopped: CommandEnd["stopped"];
  const tree = new ProcessTree(child.pid);
  let killing: Promise<void> | undefined;
  const stop = (why: "timeout" | "cancel") => {
    if (stopped || child.exitCode !== null || child.signalCode !== null) return;
    stopped = why;
    killing = killGroup(child, undefined, tree);
  };
  const timer = setTimeout(() => stop("timeout"), options.timeoutMs);
  const onAbort = () => stop("cancel");
  if (options.signal.aborted) onAbort();
  else options.signal.addEventListener("abort", onAbort, { once: true });

  let finished = false;
  const readers = [child.stdout.getReader(), child.stderr.getReader()];
  const readAll = async (reader: (typeof readers)[number]) => {
    const decoder = new TextDecoder();
    for (;;) {
      const { done, value } = await reader.read();
      if (done || finished) break;
      options.onOutput(decoder.decode(value, { stream: true }));
    }
    const tail = decoder.decode();
    if (tail && !finished) options.onOutput(tail);
  };
  const reading = Promise.all(readers.map(readAll)).catch((error: unknown) => log.debug("command output ended", error));

  try {
    await child.exited;
    // A background child may hold the pipe open: read what is there, then stop waiting for EOF.
    await Promise.race([reading, Bun.sleep(DRAIN_MS)]);
    // Whatever survives a cancel or timeout (a child that ignored SIGTERM) is killed now.
    if (stopped) {
      await killing;
      tree.signal("SIGKILL");
    }
    return {
      exitCode: child.exitCode,
      signal: child.signalCode === null ? null : String(child.signalCode),
      ...defined({ stopped }),
    };
  } finally {
    // Nothing is reported after the result: output still arriving from background children is dropped.
    finished = true;
    for (const reader of readers) void reader.cancel().catch(() => undefined);
    clearTimeout(timer);
    options.signal.removeEventListener("abort", onAbort);
  }
}
