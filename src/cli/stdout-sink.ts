/**
 * The command line's stdout, for output a reader may stop reading (`verbatim run ... | head`).
 * A closed pipe is not an error to show: the sink stops writing and tells its owner once, as
 * other command-line tools end when their reader goes away.
 */
export const STDOUT_CLOSED_EXIT = 141; // 128 + SIGPIPE: what a shell shows for a tool its reader left

export class StdoutSink {
  #closed = false;
  #onClosed: (() => void) | undefined;
  readonly #listener = (error: unknown) => this.#failed(error);

  constructor(private readonly stream: NodeJS.WriteStream = process.stdout) {
    // Bun raises a closed pipe from write(); Node reports it as an 'error' event.
    stream.on("error", this.#listener);
  }

  /** Whether the reader went away. */
  get closed(): boolean {
    return this.#closed;
  }

  /** `run` is called once, when the reader goes away. */
  onClosed(run: () => void): void {
    this.#onClosed = run;
  }

  write(text: string): void {
    if (this.#closed) return;
    try {
      this.stream.write(text);
    } catch (error) {
      this.#failed(error);
    }
  }

  /** Stops listening to the stream. */
  dispose(): void {
    this.stream.off("error", this.#listener);
  }

  #failed(error: unknown): void {
    if ((error as { code?: unknown }).code !== "EPIPE") throw error;
    if (this.#closed) return;
    this.#closed = true;
    this.#onClosed?.();
  }
}
