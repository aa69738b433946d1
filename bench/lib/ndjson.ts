/**
 * A raw NDJSON reader for the client side of a benchmark: it splits the agent's stdout into
 * lines as bytes and hands each to a callback with the time its bytes arrived. Nothing is
 * decoded or parsed unless the measurement asks for it, so the client costs next to nothing
 * next to the agent it measures (a full SDK client validates every message and would dominate).
 */
import { now } from "./clock.ts";

/** Called for each complete line (without its newline); return true to stop reading. */
export type OnLine = (line: Uint8Array, at: number) => boolean | undefined;

const NEWLINE = 0x0a;

/** Reads `stream` until `onLine` returns true or the stream ends. Resolves to the lines read. */
export async function readLines(stream: ReadableStream<Uint8Array>, onLine: OnLine): Promise<number> {
  const reader = stream.getReader();
  let carry: Uint8Array | undefined;
  let count = 0;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return count;
      const at = now();
      let chunk = value;
      if (carry) {
        const joined = new Uint8Array(carry.length + chunk.length);
        joined.set(carry);
        joined.set(chunk, carry.length);
        chunk = joined;
        carry = undefined;
      }
      let start = 0;
      for (let nl = chunk.indexOf(NEWLINE); nl !== -1; nl = chunk.indexOf(NEWLINE, start)) {
        count++;
        if (onLine(chunk.subarray(start, nl), at) === true) return count;
        start = nl + 1;
      }
      if (start < chunk.length) carry = chunk.slice(start);
    }
  } finally {
    reader.releaseLock();
  }
}

const decoder = new TextDecoder();
export const text = (line: Uint8Array): string => decoder.decode(line);

const ID_PREFIX = new TextEncoder().encode('{"jsonrpc":"2.0","id":');

/**
 * The id of a response line written by the ACP SDK (`{"jsonrpc":"2.0","id":N,...}`), or
 * undefined for any other line (notifications and requests carry "method" first). Only a few
 * bytes are looked at.
 */
export function responseId(line: Uint8Array): number | undefined {
  if (line.length < ID_PREFIX.length) return undefined;
  for (let i = 0; i < ID_PREFIX.length; i++) if (line[i] !== ID_PREFIX[i]) return undefined;
  let n = 0;
  let i = ID_PREFIX.length;
  let digits = 0;
  for (; i < line.length; i++) {
    const c = line[i] as number;
    if (c < 0x30 || c > 0x39) break;
    n = n * 10 + (c - 0x30);
    digits++;
  }
  if (digits === 0 || line[i] !== 0x2c) return undefined;
  // A request from the agent carries "method" right after its id; a response does not.
  return hasAt(line, i + 1, '"method"') ? undefined : n;
}

function hasAt(line: Uint8Array, at: number, s: string): boolean {
  for (let k = 0; k < s.length; k++) if (line[at + k] !== s.charCodeAt(k)) return false;
  return true;
}

/** A JSON-RPC request line. */
export const requestLine = (id: number, method: string, params: unknown): string =>
  `${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`;
