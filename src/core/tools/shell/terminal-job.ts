/**
 * A background job in the client's terminal (ACP `terminal/*`): its output is what
 * `terminal/output` answers, looked at every TERMINAL_POLL_MS and handed to `sink` as it grows;
 * it ends when `terminal/wait_for_exit` answers (after one last look); stopping it is
 * `terminal/kill`. The terminal is released once the command has ended, however it ended.
 */
import { log } from "../../../shared/log.ts";
import type { ClientTerminal, ExitStatus } from "../tool.ts";
import type { JobEnd, JobPlace, JobRunner } from "./job-runner.ts";
import { terminalOutputDelta } from "./terminal-output-delta.ts";

/** How often the client is asked for the terminal's output: each answer carries all of it, up to its byte limit. */
export const TERMINAL_POLL_MS = 500;
/** How long a killed terminal's exit is waited for before the job counts as ended anyway (a client that no longer answers). */
const KILL_WAIT_MS = 5_000;

export class TerminalJob implements JobRunner {
  sink: (chunk: string) => void = () => undefined;
  readonly ended: Promise<JobEnd>;
  readonly #terminal: ClientTerminal;
  #seen: string;
  #exited = false;
  /** Looks at the output one at a time, so that chunks are handed over in order. */
  #looking: Promise<void> = Promise.resolve();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #stopping: Promise<void> | undefined;
  #giveUp: () => void = () => undefined;

  /** `seen`: the output already taken (by the foreground run it moves from), which is not handed over again. */
  constructor(terminal: ClientTerminal, seen = "", pollMs = TERMINAL_POLL_MS) {
    this.#terminal = terminal;
    this.#seen = seen;
    const poll = () => {
      this.#timer = setTimeout(() => {
        void this.#look().then(() => {
          if (!this.#exited) poll();
        });
      }, pollMs);
    };
    poll();
    const exit = terminal.waitForExit().catch((error: unknown): ExitStatus => {
      log.debug("terminal wait_for_exit failed", error);
      return {};
    });
    const givenUp = new Promise<ExitStatus>((resolve) => {
      this.#giveUp = () => resolve({});
    });
    this.ended = Promise.race([exit, givenUp]).then(async (status) => {
      this.#exited = true;
      clearTimeout(this.#timer);
      await this.#look();
      await terminal.release().catch((error: unknown) => log.debug("terminal release failed", error));
      return { exitCode: status.exitCode ?? null, signal: status.signal ?? null };
    });
  }

  get place(): JobPlace {
    return { terminalId: this.#terminal.id };
  }

  get running(): boolean {
    return !this.#exited;
  }

  /** `terminal/kill`, then the end (which releases the terminal). A client's terminal has no grace period to give. */
  stop(): Promise<void> {
    this.#stopping ??= this.#terminal
      .kill()
      .catch((error: unknown) => log.debug("terminal kill failed", error))
      .then(async () => {
        const waited = setTimeout(() => this.#giveUp(), KILL_WAIT_MS);
        await this.ended;
        clearTimeout(waited);
      });
    return this.#stopping;
  }

  /** Nothing can be asked of the client synchronously: its terminals are its own to end with the connection. */
  killNow(): void {}

  #look(): Promise<void> {
    this.#looking = this.#looking.then(async () => {
      try {
        const { output } = await this.#terminal.output();
        const added = terminalOutputDelta(this.#seen, output);
        this.#seen = output;
        if (added) this.sink(added);
      } catch (error) {
        log.debug("terminal output failed", error);
      }
    });
    return this.#looking;
  }
}
