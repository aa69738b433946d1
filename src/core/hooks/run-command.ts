/**
 * Running one hook command: its own process group (a new session, no controlling terminal),
 * the payload written to stdin and closed (a command that never reads it is fine), stdout and
 * stderr captured up to a cap. It is done when the process exits, not when its pipes close (a
 * background child may hold them open for ever): after the exit, output still in the pipes is
 * read for a short window, then the pipes are let go. On timeout or cancel the whole group gets
 * SIGTERM, then SIGKILL after a grace period, and the run still waits for the exit (the lifetime
 * the Bash tool's commands share: ../command-lifetime.ts).
 */
import { commandLifetime } from "../command-lifetime.ts";
import { defined } from "../../shared/defined.ts";

export type CommandSpec = {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  stdin: string;
  timeoutMs: number;
  signal?: AbortSignal;
  graceMs?: number;
};

export type CommandResult = {
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  /** Set when verbatim stopped it. */
  stopped?: "timeout" | "cancel";
  /** Set when it could not be started at all. */
  spawnError?: string;
  durationMs: number;
  pid?: number;
};

/** Each of stdout and stderr is kept up to this many bytes. */
const OUTPUT_CAP_BYTES = 1024 * 1024;

export async function runCommand(spec: CommandSpec): Promise<CommandResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  if (spec.signal?.aborted) return empty({ stopped: "cancel", durationMs: 0 });
  let child: Bun.Subprocess<"pipe", "pipe", "pipe">;
  try {
    child = Bun.spawn(spec.argv, {
      cwd: spec.cwd,
      env: spec.env,
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
      detached: true,
    });
  } catch (error) {
    return empty({ spawnError: error instanceof Error ? error.message : String(error), durationMs: elapsed() });
  }
  feed(child.stdin, spec.stdin);

  const lifetime = commandLifetime(child, spec);
  const out = capture(child.stdout);
  const err = capture(child.stderr);
  try {
    const stopped = await lifetime.ended(Promise.all([out.done, err.done]));
    return {
      exitCode: child.exitCode,
      signal: child.signalCode === null ? null : String(child.signalCode),
      stdout: out.text(),
      stderr: err.text(),
      stdoutTruncated: out.truncated(),
      stderrTruncated: err.truncated(),
      ...defined({ stopped }),
      durationMs: elapsed(),
      pid: child.pid,
    };
  } finally {
    lifetime.dispose();
    out.release();
    err.release();
  }
}

/** Writes the payload and closes stdin. A command that exits without reading it (EPIPE) is fine. */
function feed(stdin: Bun.FileSink, payload: string): void {
  try {
    const written = stdin.write(payload);
    if (written instanceof Promise) written.catch(() => undefined);
    const ended = stdin.end();
    if (ended instanceof Promise) ended.catch(() => undefined);
  } catch {
    // The command is already gone; its exit tells what happened.
  }
}

function capture(stream: ReadableStream<Uint8Array>) {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let cut = false;
  const done = (async () => {
    try {
      for (;;) {
        const { done: finished, value } = await reader.read();
        if (finished) return;
        if (size >= OUTPUT_CAP_BYTES) {
          cut = true;
          continue;
        }
        const room = OUTPUT_CAP_BYTES - size;
        const kept = value.byteLength > room ? value.subarray(0, room) : value;
        if (kept !== value) cut = true;
        chunks.push(kept);
        size += kept.byteLength;
      }
    } catch {
      // Released after the exit: what was read is what there is.
    }
  })();
  return {
    done,
    text: () => new TextDecoder().decode(Buffer.concat(chunks)),
    truncated: () => cut,
    release: () => void reader.cancel().catch(() => undefined),
  };
}

function empty(extra: Partial<CommandResult> & { durationMs: number }): CommandResult {
  return {
    exitCode: null,
    signal: null,
    stdout: "",
    stderr: "",
    stdoutTruncated: false,
    stderrTruncated: false,
    ...extra,
  };
}
