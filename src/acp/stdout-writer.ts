/**
 * The outgoing side of the stdio transport: stdout with a buffer of its own, and the writer the
 * SDK hands each message to.
 */
import type * as acp from "@agentclientprotocol/sdk/unstable";
import { messageText } from "./written-lines.ts";

export type Message = acp.Stream["writable"] extends WritableStream<infer T> ? T : never;

/**
 * How long a written message may wait in the buffer while more writes follow: writes within one
 * window share a system call (a replay writes thousands of updates in a row), and no message
 * waits longer than this while the agent keeps working. A burst's tail is flushed as soon as the
 * agent yields to the event loop.
 */
const FLUSH_WINDOW_MS = 0.2;
/** Past this many bytes buffered here, they are handed to the pipe at once. */
export const HIGH_WATER_BYTES = 256 * 1024;
/**
 * Past this many bytes handed to the pipe and not yet taken by the client, a write waits for the
 * pipe to drain (the client is behind): backpressure. Below it a write returns at once, so a
 * load goes on reading its next rows while the client reads the last ones.
 */
export const BACKLOG_BYTES = 512 * 1024;

/** What the buffer writes to: stdout's sink (Bun's FileSink), or a test's. */
export type Sink = Pick<Bun.FileSink, "write" | "flush">;

/** Told of every message as it is written (see `PendingRequests`). */
export type SentObserver = { sent(message: Message): void };

/**
 * The outgoing side as the SDK takes it: a WritableStream of messages whose writer serializes
 * each message straight into the buffered stdout. The SDK takes a writer per message; the
 * standard writer's machinery (queues, a chain of promises) cost more than the message itself.
 */
export class MessageWritable extends WritableStream<Message> {
  readonly #writer: MessageWriter;

  constructor(out: BufferedStdout, pending: SentObserver) {
    super({
      write: (message) => {
        pending.sent(message);
        return out.write(messageText(message));
      },
    });
    this.#writer = new MessageWriter(out, pending);
  }

  override getWriter(): WritableStreamDefaultWriter<Message> {
    return this.#writer;
  }
}

const settled: Promise<undefined> = Promise.resolve(undefined);

/**
 * Writes each message as one line; resolves at once unless the client is far behind
 * (BACKLOG_BYTES). Never closes stdout.
 */
class MessageWriter implements WritableStreamDefaultWriter<Message> {
  readonly closed = new Promise<undefined>(() => {});
  readonly desiredSize = 1;
  readonly ready = settled;

  constructor(
    private readonly out: BufferedStdout,
    private readonly pending: SentObserver,
  ) {}

  write(message: Message): Promise<void> {
    const written = this.out.write(messageText(message)) ?? settled;
    this.pending.sent(message);
    return written;
  }

  releaseLock(): void {}

  close(): Promise<void> {
    return settled;
  }

  abort(): Promise<void> {
    return settled;
  }
}

/**
 * stdout with a buffer of its own: lines are kept as they come (strings, or bytes a store handed
 * over) and handed to the sink joined, one write per run of strings and one per piece of bytes
 * (many small writes of strings into the sink cost more than joining them; bytes are copied
 * into the sink's buffer as they are, never decoded).
 */
export class BufferedStdout {
  #parts: (string | Uint8Array)[] = [];
  /** Whether `#parts` holds bytes (else it is joined as text, in one write). */
  #bytes = false;
  #buffered = 0;
  #lastFlush = 0;
  #scheduled = false;
  /** The sink's flush still under way (a pipe the client had not drained), if any. */
  #draining: Promise<void> | undefined;
  /** Bytes handed to the sink since it last had written everything: what the client has yet to take, at most. */
  #backlog = 0;

  constructor(private readonly sink: Sink) {}

  /**
   * Buffers `data` (a line, or pieces of whole lines in order); returns at once unless more than
   * BACKLOG_BYTES wait for the pipe, then a promise that settles once it has drained.
   */
  write(data: string | Uint8Array | readonly (string | Uint8Array)[]): Promise<void> | undefined {
    if (typeof data === "string") {
      this.#parts.push(data);
      this.#buffered += data.length;
    } else {
      this.#bytes = true;
      for (const piece of data instanceof Uint8Array ? [data] : data) {
        this.#parts.push(piece);
        this.#buffered += piece.length;
      }
    }
    const now = performance.now();
    if (this.#buffered >= HIGH_WATER_BYTES || now - this.#lastFlush >= FLUSH_WINDOW_MS) return this.#flush(now);
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => {
        this.#scheduled = false;
        void this.#flush(performance.now());
      });
    }
    return undefined;
  }

  /** Writes out everything buffered (before the process exits). */
  async flushAll(): Promise<void> {
    this.#flush(performance.now());
    await this.#draining;
  }

  /**
   * Calls `callback` on a later turn of the event loop, once everything written so far has been
   * handed to the pipe (for work that must not hold up what was written).
   */
  afterWrite(callback: () => void): void {
    setImmediate(() => {
      if (this.#parts.length > 0) this.#flush(performance.now());
      const written = this.#draining;
      if (written) void written.then(callback, callback);
      else callback();
    });
  }

  #writeParts(parts: readonly (string | Uint8Array)[]): void {
    if (!this.#bytes) {
      void this.sink.write(parts.length === 1 ? (parts[0] as string) : parts.join(""));
      return;
    }
    this.#bytes = false;
    let text: string[] = [];
    for (const part of parts) {
      if (typeof part === "string") {
        text.push(part);
        continue;
      }
      if (text.length > 0) void this.sink.write(text.join(""));
      text = [];
      void this.sink.write(part);
    }
    if (text.length > 0) void this.sink.write(text.length === 1 ? (text[0] as string) : text.join(""));
  }

  /** Hands what is buffered to the sink; the drain to wait for when the backlog is past BACKLOG_BYTES. */
  #flush(now: number): Promise<void> | undefined {
    this.#lastFlush = now;
    const handed = this.#buffered;
    if (this.#parts.length > 0) {
      this.#writeParts(this.#parts);
      this.#parts = [];
      this.#buffered = 0;
    }
    const flushed = this.sink.flush();
    if (typeof flushed === "number") {
      this.#backlog = 0;
      return undefined;
    }
    this.#backlog += handed;
    const draining = flushed.then(() => {
      if (this.#draining !== draining) return;
      this.#draining = undefined;
      this.#backlog = 0;
    });
    this.#draining = draining;
    return this.#backlog > BACKLOG_BYTES ? draining : undefined;
  }
}
