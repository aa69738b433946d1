/**
 * Serving ACP over this process's stdio. stdout carries only protocol messages; anything else
 * (logs, stray console output) goes to stderr.
 */
import * as acp from "@agentclientprotocol/sdk";
import type { EngineDeps } from "../core/session/session-runtime.ts";
import { log } from "../log.ts";
import { createAgentApp } from "./agent-app.ts";
import { guardLineLength, maxMessageBytes } from "./line-guard.ts";
import { PendingRequests } from "./pending-requests.ts";
import { BufferedStdout, HIGH_WATER_BYTES, MessageWritable, type Message } from "./stdout-writer.ts";

/**
 * Serves one client until it closes stdin. Without `deps`, the engine is built from the
 * environment; `trust` trusts every workspace.
 */
export async function serveStdio(options: { deps?: EngineDeps; trust?: boolean } = {}): Promise<void> {
  protectStdout();
  const agent = createAgentApp(options.deps, { trust: options.trust ?? false });
  const stdio = stdioStream();
  const connection = agent.app.connect(stdio);
  await connection.closed.catch((error: unknown) => log.debug("connection closed", error));
  await agent.closeAll();
  agent.loadedDeps()?.store.close();
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
 * every request read is answered (see `PendingRequests`).
 */
export function stdioStream(): acp.Stream & { flush(): Promise<void> } {
  const out = new BufferedStdout(Bun.stdout.writer({ highWaterMark: HIGH_WATER_BYTES }));
  const bytes = new WritableStream<Uint8Array>({ write: (chunk) => out.write(chunk) });
  const pending = new PendingRequests();
  const limit = maxMessageBytes();
  const input = guardLineLength(Bun.stdin.stream(), limit, (answer) => out.write(`${JSON.stringify(answer)}\n`));
  const { readable } = acp.ndJsonStream(bytes, input, { maxMessageBytes: limit });
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

/** Anything written with console.log/info/debug goes to stderr, never into the protocol stream. */
export function protectStdout(): void {
  const toStderr = (...args: unknown[]) => {
    process.stderr.write(`${args.map((a) => (typeof a === "string" ? a : Bun.inspect(a))).join(" ")}\n`);
  };
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
}
