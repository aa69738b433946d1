/**
 * Serving ACP over this process's stdio. stdout carries only protocol messages; anything else
 * (logs, stray console output) goes to stderr.
 */
import * as acp from "@agentclientprotocol/sdk";
import type { EngineDeps } from "../core/session/session-runtime.ts";
import { log } from "../log.ts";
import { createAgentApp } from "./agent-app.ts";
import { PendingRequests } from "./pending-requests.ts";

type Message = acp.Stream["writable"] extends WritableStream<infer T> ? T : never;

/** Serves one client until it closes stdin. Without `deps`, the engine is built from the environment. */
export async function serveStdio(deps?: EngineDeps): Promise<void> {
  protectStdout();
  const agent = createAgentApp(deps);
  const stdio = stdioStream();
  const connection = agent.app.connect(stdio);
  await connection.closed.catch((error: unknown) => log.debug("connection closed", error));
  await agent.closeAll();
  agent.loadedDeps()?.store.close();
  await stdio.flush();
}

/**
 * How long a written message may wait in the buffer while more writes follow: writes within one
 * window share a system call (a replay writes thousands of updates in a row), and no message
 * waits longer than this while the agent keeps working. A burst's tail is flushed as soon as the
 * agent yields to the event loop.
 */
const FLUSH_WINDOW_MS = 0.2;
/** Past this many buffered bytes a write waits for the pipe (the client is behind): backpressure. */
const HIGH_WATER_BYTES = 256 * 1024;

/**
 * The ACP stream on stdin and stdout, on Bun's own streams (no `node:stream` adapters: they
 * cost time to load and a chain of promises per message). Each outgoing message is serialized
 * and buffered the moment the SDK hands it over, then flushed: at once when nothing was flushed
 * in the last window, else with the next write past the window or as soon as the agent yields.
 * A write waits only while too much is buffered for a pipe the client is not draining, and later
 * messages queue behind it in order. Incoming lines are split and parsed by the SDK's own
 * NDJSON reader, which also answers malformed input. When stdin ends, the input ends only once
 * every request read is answered (see `PendingRequests`).
 */
export function stdioStream(): acp.Stream & { flush(): Promise<void> } {
  const out = new BufferedStdout(Bun.stdout.writer({ highWaterMark: HIGH_WATER_BYTES }));
  const bytes = new WritableStream<Uint8Array>({ write: (chunk) => out.write(chunk) });
  const pending = new PendingRequests();
  const { readable } = acp.ndJsonStream(bytes, Bun.stdin.stream());
  const tracked = readable.pipeThrough(
    new TransformStream<Message, Message>({
      transform(message, controller) {
        pending.received(message);
        controller.enqueue(message);
      },
      flush: () => pending.drained(),
    }),
  );
  return { readable: tracked, writable: new MessageWritable(out, pending), flush: () => out.flushAll() };
}

/**
 * The outgoing side as the SDK takes it: a WritableStream of messages whose writer serializes
 * each message straight into the buffered stdout. The SDK takes a writer per message; the
 * standard writer's machinery (queues, a chain of promises) cost more than the message itself.
 */
class MessageWritable extends WritableStream<Message> {
  readonly #writer: MessageWriter;

  constructor(out: BufferedStdout, pending: PendingRequests) {
    super({
      write: (message) => {
        pending.sent(message);
        return out.write(`${JSON.stringify(message)}\n`);
      },
    });
    this.#writer = new MessageWriter(out, pending);
  }

  override getWriter(): WritableStreamDefaultWriter<Message> {
    return this.#writer;
  }
}

const settled: Promise<undefined> = Promise.resolve(undefined);

/** Writes each message as one line; resolves at once unless the pipe is full. Never closes stdout. */
class MessageWriter implements WritableStreamDefaultWriter<Message> {
  readonly closed = new Promise<undefined>(() => {});
  readonly desiredSize = 1;
  readonly ready = settled;

  constructor(private readonly out: BufferedStdout, private readonly pending: PendingRequests) {}

  write(message: Message): Promise<void> {
    const written = this.out.write(`${JSON.stringify(message)}\n`) ?? settled;
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

const decoder = new TextDecoder();

/**
 * stdout with a buffer of its own: lines are kept as strings and handed to the sink joined, one
 * write per flush (many small writes into the sink cost more than the bytes).
 */
class BufferedStdout {
  #parts: string[] = [];
  #buffered = 0;
  #lastFlush = 0;
  #scheduled = false;

  constructor(private readonly sink: Bun.FileSink) {}

  /** Buffers `data`; resolves at once unless the pipe is full, then once it has drained. */
  write(data: string | Uint8Array): Promise<void> | undefined {
    const text = typeof data === "string" ? data : decoder.decode(data);
    this.#parts.push(text);
    this.#buffered += text.length;
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
    await this.#flush(performance.now());
  }

  #flush(now: number): Promise<void> | undefined {
    this.#lastFlush = now;
    if (this.#parts.length > 0) {
      void this.sink.write(this.#parts.length === 1 ? (this.#parts[0] as string) : this.#parts.join(""));
      this.#parts = [];
      this.#buffered = 0;
    }
    const flushed = this.sink.flush();
    return typeof flushed === "number" ? undefined : flushed.then(() => undefined);
  }
}

/** Anything written with console.log/info/debug goes to stderr, never into the protocol stream. */
export function protectStdout(): void {
  const toStderr = (...args: unknown[]) => {
    process.stderr.write(`${args.map((a) => (typeof a === "string" ? a : Bun.inspect(a))).join(" ")}\n`);
  };
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
}
