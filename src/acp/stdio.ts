/**
 * Serving ACP over this process's stdio. stdout carries only protocol messages; anything else
 * (logs, stray console output) goes to stderr.
 */
// First: the SDK builds its schemas when it loads.
import "../shared/zod-jitless.ts";
import * as acp from "@agentclientprotocol/sdk/unstable";
import type { EngineDeps } from "../core/session/session-runtime.ts";
import { log } from "../shared/log.ts";
import { createAgentApp, type ReplayFirstMode } from "./agent-app.ts";
import { ANSWERED_ID, type AnsweredInitialize } from "./answered-initialize.ts";
import { exitOnSignals } from "./exit-signals.ts";
import { guardLineLength, maxMessageBytes } from "./line-guard.ts";
import { PendingRequests } from "./pending-requests.ts";
import { BufferedStdout, HIGH_WATER_BYTES, MessageWritable, type Message, type Sink } from "./stdout-writer.ts";

/** What the start path hands the agent: the rest of stdin, and the request answered, if one was. */
export type EarlyStart = { input: ReadableStream<Uint8Array>; answered?: AnsweredInitialize };

/** The two ends of the transport: stdin and stdout unless given (tests give their own). */
export type StdioEnds = { input: ReadableStream<Uint8Array>; output: Sink };

const processEnds = (input: ReadableStream<Uint8Array> = Bun.stdin.stream()): StdioEnds => ({
  input,
  output: Bun.stdout.writer({ highWaterMark: HIGH_WATER_BYTES }),
});

/**
 * Serves one client until it closes stdin. Without `deps`, the engine is built from the
 * environment; `trust` trusts every workspace.
 *
 * Once `initialize` is answered (and the answer written), the engine loads in the background and
 * opens the journal for reading: a client sends a session method next, and that is what the
 * method would wait for first. The preload writes nothing, and sends nothing.
 *
 * `early`: what the start path left of stdin, and the `initialize` request it answered, if it did
 * (src/start/early-initialize.ts).
 */
export async function serveStdio(
  options: {
    deps?: EngineDeps;
    trust?: boolean;
    ends?: StdioEnds;
    early?: EarlyStart;
    replayFirst?: ReplayFirstMode;
  } = {},
): Promise<void> {
  if (!options.ends) protectStdout();
  const agent = createAgentApp(options.deps, {
    trust: options.trust ?? false,
    ...(options.replayFirst ? { replayFirst: options.replayFirst } : {}),
    ...(options.early?.answered ? { answered: options.early.answered } : {}),
  });
  const stdio = stdioStream(
    options.ends ?? processEnds(options.early?.input),
    () => agent.preload(),
    (message) => agent.received(message),
    options.early?.answered,
  );
  const connection = agent.connect(stdio);
  // Shutdown never throws: sessions close, the journal closes, whatever failed before.
  const shutdown = async () => {
    await agent.closeAll().catch((error: unknown) => log.warn("closing the sessions failed", error));
    await agent
      .loadedDeps()
      ?.store.close()
      .catch((error: unknown) => log.warn("closing the journal failed", error));
  };
  // SIGTERM and SIGHUP close as a closed stdin does (the process's own stdio only).
  const uninstall = options.ends ? undefined : exitOnSignals(shutdown);
  await connection.closed.catch((error: unknown) => log.debug("connection closed", error));
  uninstall?.();
  await shutdown();
  // What is owed to the client is flushed last.
  await stdio.flush();
}

/**
 * The ACP stream on stdin and stdout, on Bun's own streams (no `node:stream` adapters: they
 * cost time to load and a chain of promises per message). Each outgoing message is serialized
 * and buffered the moment the SDK hands it over, then flushed: at once when nothing was flushed
 * in the last window, else with the next write past the window or as soon as the agent yields.
 * A write waits only while too much is buffered for a pipe the client is not draining, and later
 * messages queue behind it in order. Incoming lines pass a length guard (an oversized line is
 * answered, not fatal: see line-guard.ts), then are split and parsed by the SDK's own NDJSON
 * reader, which also answers malformed input. When stdin ends, the input ends only once
 * every request read is answered (see `PendingRequests`). `afterInitialize` is called once the
 * answer to each `initialize` request has been written out. `received` sees each incoming message
 * as it is read, in wire order, before the SDK dispatches it.
 *
 * `answered`: an `initialize` request already answered on this stdout. The connection reads it
 * first, under an id of its own, so that the app learns the client's capabilities as from any
 * `initialize`; its answer is not written again (see `answeredOnce`).
 */
export function stdioStream(
  ends: StdioEnds,
  afterInitialize?: () => void,
  received?: (message: Message) => void,
  answered?: AnsweredInitialize,
): acp.Stream & { flush(): Promise<void> } {
  const out = new BufferedStdout(ends.output);
  const bytes = new WritableStream<Uint8Array>({ write: (chunk) => out.write(chunk) });
  const pending = new PendingRequests();
  /** The ids of `initialize` requests not answered yet. */
  const initializing = new Set<unknown>();
  const limit = maxMessageBytes();
  /** Settles once the connection has handled the already-answered request (see `answeredFirst`). */
  const handled = Promise.withResolvers<void>();
  const read = answered ? answeredFirst(answered, ends.input, handled.promise) : ends.input;
  const input = guardLineLength(read, limit, (answer) => out.write(`${JSON.stringify(answer)}\n`));
  const { readable } = acp.ndJsonStream(bytes, input, { maxMessageBytes: limit });
  const tracked = readable.pipeThrough(
    new TransformStream<Message, Message>({
      transform(message, controller) {
        pending.received(message);
        received?.(message);
        if (
          afterInitialize &&
          "method" in message &&
          message.method === acp.methods.agent.initialize &&
          "id" in message
        ) {
          initializing.add(message.id);
        }
        controller.enqueue(message);
      },
      flush: () => pending.drained(),
    }),
  );
  const sent = (message: Message) => {
    pending.sent(message);
    if (afterInitialize && !("method" in message) && "id" in message && initializing.delete(message.id))
      out.afterWrite(afterInitialize);
  };
  const writable = new MessageWritable(out, { sent });
  return {
    readable: tracked,
    writable: answered
      ? answeredOnce(writable, (message) => {
          sent(message);
          handled.resolve();
        })
      : writable,
    flush: () => out.flushAll(),
  };
}

/**
 * `input`, after the answered request's line (under `ANSWERED_ID`). The rest waits until the
 * connection has `handled` that request: the SDK refuses session methods that arrive while
 * `initialize` is still being handled, and the client, having its answer, sends them at once.
 */
function answeredFirst(
  answered: AnsweredInitialize,
  input: ReadableStream<Uint8Array>,
  handled: Promise<void>,
): ReadableStream<Uint8Array> {
  const line = new TextEncoder().encode(`${JSON.stringify({ ...answered.request, id: ANSWERED_ID })}\n`);
  const reader = input.getReader();
  let first: Uint8Array | undefined = line;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (first) {
        controller.enqueue(first);
        first = undefined;
        return;
      }
      await handled;
      const { value, done } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/**
 * The SDK's writable, less its answer to the already-answered request: that answer (the start
 * path's own, agent-app.ts) is only observed as sent, so the request counts as answered and the
 * engine preloads.
 */
function answeredOnce(writable: MessageWritable, sent: (message: Message) => void): WritableStream<Message> {
  const inner = writable.getWriter();
  const writer: WritableStreamDefaultWriter<Message> = {
    closed: inner.closed,
    desiredSize: inner.desiredSize,
    ready: inner.ready,
    write: (message) => {
      if (!message || "method" in message || !("id" in message) || message.id !== ANSWERED_ID)
        return inner.write(message);
      sent(message);
      return Promise.resolve();
    },
    releaseLock: () => inner.releaseLock(),
    close: () => inner.close(),
    abort: (reason) => inner.abort(reason),
  };
  return Object.assign(new WritableStream<Message>({ write: (message) => writer.write(message) }), {
    getWriter: () => writer,
  });
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
