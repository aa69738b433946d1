/**
 * Running a command as a local process: `bash -c` in its own process group (a new session), so
 * that a cancel or a timeout kills the command and everything it started, background children
 * included (the lifetime hook commands share: ../../command-lifetime.ts). Output (stdout and
 * stderr, interleaved) is streamed to `onOutput`.
 */
import { log } from "../../../shared/log.ts";
import { commandLifetime, type Stopped } from "../../command-lifetime.ts";
import { defined } from "../../../shared/defined.ts";

export type CommandEnd = { exitCode: number | null; signal: string | null; stopped?: Stopped };

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
  const lifetime = commandLifetime(child, options);

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
    const stopped = await lifetime.ended(reading);
    return {
      exitCode: child.exitCode,
      signal: child.signalCode === null ? null : String(child.signalCode),
      ...defined({ stopped }),
    };
  } finally {
    // Nothing is reported after the result: output still arriving from background children is dropped.
    finished = true;
    for (const reader of readers) void reader.cancel().catch(() => undefined);
    lifetime.dispose();
  }
}
