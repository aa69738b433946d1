/**
 * Serving ACP over this process's stdio. stdout carries only protocol messages; anything else
 * (logs, stray console output) goes to stderr.
 */
import * as acp from "@agentclientprotocol/sdk";
import { Readable, Writable } from "node:stream";
import type { EngineDeps } from "../core/session/session-runtime.ts";
import { log } from "../log.ts";
import { createAgentApp } from "./agent-app.ts";

export async function serveStdio(deps: EngineDeps): Promise<void> {
  protectStdout();
  const input = Readable.toWeb(process.stdin) as unknown as ReadableStream<Uint8Array>;
  const output = Writable.toWeb(process.stdout) as unknown as WritableStream<Uint8Array>;
  const { app, closeAll } = createAgentApp(deps);
  const connection = app.connect(acp.ndJsonStream(output, input));
  await connection.closed.catch((error: unknown) => log.debug("connection closed", error));
  await closeAll();
  deps.store.close();
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
