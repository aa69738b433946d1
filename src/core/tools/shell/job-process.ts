/**
 * A command that may outlive the call that started it: `bash -c` leading its own process group
 * (as local-process.ts runs every command), its output (stdout and stderr interleaved) handed to
 * whatever `sink` is set now, so a foreground command can be handed to the session's background
 * jobs at its timeout without losing a byte. It ends when its leader exits (and the pipes are
 * drained for a moment); `stop` kills the whole tree.
 */
import { killGroup, ProcessTree } from "../../process-group.ts";
import { processStartTime } from "../../../journal/process-identity.ts";
import { log } from "../../../shared/log.ts";
import type { JobEnd, JobPlace, JobRunner } from "./job-runner.ts";

/** After the leader exits, how long to keep reading output still in the pipes. */
const DRAIN_MS = 250;

export class JobProcess implements JobRunner {
  readonly pid: number;
  /** The leader's start time (clock ticks since boot), which with the pid names the group after a crash. */
  readonly startTime: string;
  /** Where output goes now (replaced when the command moves to the background). */
  sink: (chunk: string) => void = () => undefined;
  /** Resolves when the leader has exited and its output has been read. */
  readonly ended: Promise<JobEnd>;
  readonly #tree: ProcessTree;
  readonly #child: ReturnType<typeof Bun.spawn>;
  #stopping: Promise<void> | undefined;

  constructor(options: { command: string; cwd: string; env: Record<string, string> }) {
    this.#child = Bun.spawn(["bash", "-c", `exec 2>&1\n${options.command}`], {
      cwd: options.cwd,
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
      detached: true,
      env: options.env,
    });
    this.pid = this.#child.pid;
    this.#tree = new ProcessTree(this.pid);
    this.startTime = processStartTime(this.pid) ?? "";
    const streams = [this.#child.stdout, this.#child.stderr] as ReadableStream<Uint8Array>[];
    const reading = Promise.all(streams.map((s) => this.#read(s))).catch((error: unknown) =>
      log.debug("job output ended", error),
    );
    this.ended = this.#child.exited.then(async () => {
      await Promise.race([reading, Bun.sleep(DRAIN_MS)]);
      const signal = this.#child.signalCode;
      return { exitCode: this.#child.exitCode, signal: signal === null ? null : String(signal) };
    });
  }

  get place(): JobPlace {
    return { pid: this.pid, startTime: this.startTime };
  }

  get running(): boolean {
    return this.#child.exitCode === null && this.#child.signalCode === null;
  }

  /** SIGTERM to the whole tree, SIGKILL after the grace period; resolves once the leader has exited. */
  stop(graceMs?: number): Promise<void> {
    this.#stopping ??= killGroup(this.#child, graceMs, this.#tree).then(async () => {
      await this.#child.exited;
      this.#tree.signal("SIGKILL");
    });
    return this.#stopping;
  }

  /** Synchronous last resort at process exit: SIGKILL to the tree. */
  killNow(): void {
    this.#tree.signal("SIGKILL");
  }

  async #read(stream: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    const reader = stream.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const text = decoder.decode(value, { stream: true });
      if (text) this.sink(text);
    }
    const tail = decoder.decode();
    if (tail) this.sink(tail);
  }
}
