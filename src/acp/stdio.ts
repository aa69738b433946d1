/**
 * Serving ACP over this process's stdio. stdout carries only protocol messages; anything else
 * (logs, stray console output) goes to stderr.
 */
// First: the SDK builds its schemas when it loads.
import "../zod-jitless.ts";
import * as acp from "@agentclientprotocol/sdk/unstable";
import type { EngineDeps } from "../core/session/session-runtime.ts";
import { log } from "../log.ts";
import { createAgentApp } from "./agent-app.ts";
import { exitOnSignals } from "./exit-signals.ts";
import { guardLineLength, maxMessageBytes } from "./line-guard.ts";
import { PendingRequests } from "./pending-requests.ts";
import { BufferedStdout, HIGH_WATER_BYTES, MessageWritable, type Message, type Sink } from "./stdout-writer.ts";

/** The two ends of the transport: stdin and stdout unless given (tests give their own). */
export type StdioEnds = { input: ReadableStream<Uint8Array>; output: Sink };

const processEnds = (): StdioEnds => ({
  input: Bun.stdin.stream(),
  output: Bun.stdout.writer({ highWaterMark: HIGH_WATER_BYTES }),
});

/**
 * Serves one client until it closes stdin. Without `deps`, the engine is built from the
 * environment; `trust` trusts every workspace.
 *
 * Once `initialize` is answered (and the answer written), the engine loads in the background and
 * opens the journal for reading: a client sends a session method next, and that is what the
 * method would wait for first. The preload writes nothing, and sends nothing.
 */
export async function serveStdio(
  options: { deps?: EngineDeps; trust?: boolean; ends?: StdioEnds } = {},
): Promise<void> {
  if (!options.ends) protectStdout();
  const agent = createAgentApp(options.deps, { trust: options.trust ?? false });
  const stdio = stdioStream(
    options.ends ?? processEnds(),
    () => agent.preload(),
    (message) => agent.received(message),
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
 */
export function stdioStream(
  ends: StdioEnds,
  afterInitialize?: () => void,
  received?: (message: Message) => void,
): acp.Stream & { flush(): Promise<void> } {
  const out = new BufferedStdout(ends.output);
  const bytes = new WritableStream<Uint8Array>({ write: (chunk) => out.write(chunk) });
  const pending = new PendingRequests();
  /** The ids of `initialize` requests not answered yet. */
  const initializing = new Set<unknown>();
  const limit = maxMessageBytes();
  const input = guardLineLength(ends.input, limit, (answer) => out.write(`${JSON.stringify(answer)}\n`));
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
  return { readable: tracked, writable: new MessageWritable(out, { sent }), flush: () => out.flushAll() };
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
