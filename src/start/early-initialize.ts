/**
 * `initialize`, answered before the ACP SDK and the engine are loaded. An editor starting the agent
 * waits for this one answer, and it is a pure function of the client's request and the
 * configuration: the protocol version verbatim speaks, its capabilities, its version, and the setup
 * methods while no provider is usable (the terminal one first when the client can run it). So the
 * start path reads the first line of stdin, and when it is an `initialize` request the SDK would
 * accept, writes the very bytes the full agent would write; the full agent then loads and is handed
 * the rest of stdin and the request answered (src/acp/stdio.ts: its connection handles the request
 * without answering it again).
 *
 * Anything else (another method first, a line that is not JSON, a `protocolVersion` the SDK
 * rejects, a line longer than `MAX_FIRST_LINE`) is left whole to the full agent, which answers it
 * as it always did, errors included. VERBATIM_EARLY_INITIALIZE=off leaves every request to it.
 */
import { writeSync } from "node:fs";
import { initializeResponse } from "../acp/capabilities.ts";
import type { EarlyStart } from "../acp/stdio.ts";
import { offeredAuthMethods } from "../acp/terminal-auth.ts";
import { VERSION } from "../shared/version.ts";

/** Past this, the first line is not looked at (an `initialize` request is a few hundred bytes). */
export const MAX_FIRST_LINE = 64 * 1024;

const NEWLINE = 0x0a;

/** As much of a stream reader as this needs (Bun's and the DOM's reader types differ). */
type Reader = { read(): Promise<{ value?: Uint8Array; done: boolean }>; cancel(reason?: unknown): Promise<void> };

type Options = { trust: boolean; env: Record<string, string | undefined>; cwd: string };

/**
 * Reads stdin up to its first line; answers it on stdout when it is an `initialize` request the
 * SDK would accept. The returned input holds every byte not consumed by that answer.
 */
export async function answerInitializeEarly(stdin: ReadableStream<Uint8Array>, options: Options): Promise<EarlyStart> {
  const reader = stdin.getReader();
  const { head, newline } = await readFirstLine(reader);
  const asked =
    newline >= 0 && options.env.VERBATIM_EARLY_INITIALIZE !== "off" ? accepted(head.subarray(0, newline)) : undefined;
  if (!asked) return { input: continued(head, reader) };
  // The config reading (and its schemas) is evaluated only to answer: a request left to the full agent does not pay for it.
  const { offeredSetupMethods } = await import("./offered-setup.ts");
  const result = initializeResponse(
    VERSION,
    offeredAuthMethods(asked.capabilities, offeredSetupMethods(options.env, options.cwd, options.trust)),
  );
  const answer = `${JSON.stringify({ jsonrpc: "2.0", id: asked.request.id, result })}\n`;
  writeAll(answer);
  return { input: continued(head.subarray(newline + 1), reader), answered: { request: asked.request, answer } };
}

/** Chunks up to and including the first newline (or `MAX_FIRST_LINE` bytes, or the end). */
async function readFirstLine(reader: Reader): Promise<{ head: Uint8Array; newline: number }> {
  let head = new Uint8Array(0);
  while (head.length <= MAX_FIRST_LINE) {
    const { value, done } = await reader.read();
    if (done || !value) break;
    const joined = new Uint8Array(head.length + value.length);
    joined.set(head);
    joined.set(value, head.length);
    const at = value.indexOf(NEWLINE);
    const newline = at >= 0 ? head.length + at : -1;
    head = joined;
    if (newline >= 0) return { head, newline: newline <= MAX_FIRST_LINE ? newline : -1 };
  }
  return { head, newline: -1 };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The request in `line`, if it is an `initialize` request the SDK accepts, with the client
 * capabilities the answer depends on. The SDK's schema is lenient past `protocolVersion` (an
 * integer 0-65535): a malformed capability reads as absent. So the terminal capability counts only
 * as the SDK reads it: `auth.terminal` or `_meta["terminal-auth"]`, exactly `true`.
 */
function accepted(
  line: Uint8Array,
):
  | { request: Record<string, unknown>; capabilities: { auth: { terminal: boolean }; _meta?: Record<string, unknown> } }
  | undefined {
  let request: unknown;
  try {
    request = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(line));
  } catch {
    return undefined;
  }
  if (!isRecord(request) || request.jsonrpc !== "2.0" || request.method !== "initialize") return undefined;
  const { id, params } = request;
  if (!(typeof id === "string" || Number.isSafeInteger(id)) || !isRecord(params)) return undefined;
  const version = params.protocolVersion;
  if (!Number.isSafeInteger(version) || (version as number) < 0 || (version as number) > 65535) return undefined;
  const asked = isRecord(params.clientCapabilities) ? params.clientCapabilities : {};
  const capabilities = {
    auth: { terminal: isRecord(asked.auth) && asked.auth.terminal === true },
    ...(isRecord(asked._meta) ? { _meta: asked._meta } : {}),
  };
  return { request, capabilities };
}

/** Writes the answer before anything else runs: nothing else is on stdout yet. */
function writeAll(text: string): void {
  const bytes = new TextEncoder().encode(text);
  for (let done = 0; done < bytes.length; ) done += writeSync(1, bytes, done);
}

/** `head`, then whatever else `reader` reads. */
function continued(head: Uint8Array, reader: Reader): ReadableStream<Uint8Array> {
  let first: Uint8Array | undefined = head.length > 0 ? head : undefined;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (first) {
        controller.enqueue(first);
        first = undefined;
        return;
      }
      const { value, done } = await reader.read();
      if (done || !value) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}
