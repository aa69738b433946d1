/**
 * What a replay cache row's lines may be: `session/update` notifications of the row's session,
 * one a line, as updateLine writes them. A row is derived data that whoever can write the cache
 * could have rewritten (its checksum guards against damage, not an adversary), and a load writes
 * its lines to the client as they are: a line that is a request (`fs/write_text_file`), another
 * method, or another session's update must never reach the client. Pure.
 */
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { updateLine } from "./replay-segments.ts";

const decoder = new TextDecoder();

/**
 * Text in a line's update that could change what the line is: a key the envelope uses (a second
 * `params` or `method` wins over the first, an `id` makes the line a request), or an escape that
 * could spell one. A line whose update holds none of these is the notification its prefix says;
 * one that does is parsed and checked whole (legitimate updates hold them now and then: a tool's
 * input with an `id` key, a command's output with an escape).
 */
const ENVELOPE_TEXT = /"(?:id|method|params|sessionId|jsonrpc)"|\\u/g;

/** The text every line of `sessionId`'s updates starts with (the envelope, up to the update). */
function linePrefix(sessionId: string): string {
  const closing = "{}}}\n";
  return updateLine(sessionId, {} as SessionUpdate).slice(0, -closing.length);
}

/**
 * True when every line of `lines` (text, or its UTF-8 bytes) is a `session/update` notification
 * of `sessionId`, each ending in a newline. Cheap: a prefix check per line and one search of its
 * update for envelope text; a JSON parse only of a line that holds some.
 */
export function linesAreUpdatesOf(lines: string | Uint8Array, sessionId: string): boolean {
  // Bytes are read as Latin-1, a character a byte (half the cost of decoding UTF-8): offsets are
  // then the bytes', and each byte of a multi-byte character is above 0x7f, so it is never part
  // of the ASCII text looked for. A line that must be parsed is decoded as UTF-8.
  const text =
    typeof lines === "string" ? lines : Buffer.from(lines.buffer, lines.byteOffset, lines.length).toString("latin1");
  const line = (start: number, end: number) =>
    typeof lines === "string" ? lines.slice(start, end) : decoder.decode(lines.subarray(start, end));
  const prefix = linePrefix(sessionId);
  for (let start = 0; start < text.length; ) {
    const end = text.indexOf("\n", start);
    if (end < 0 || !text.startsWith(prefix, start)) return false;
    ENVELOPE_TEXT.lastIndex = start + prefix.length;
    const found = ENVELOPE_TEXT.exec(text);
    if (found && found.index < end && !isUpdateOf(line(start, end), sessionId)) return false;
    start = end + 1;
  }
  return true;
}

/** The line parsed (duplicate keys resolved as a client's parser resolves them) is exactly a notification of `sessionId`. */
function isUpdateOf(line: string, sessionId: string): boolean {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return false;
  }
  if (!isRecord(message) || !sameKeys(message, ["jsonrpc", "method", "params"])) return false;
  if (message.jsonrpc !== "2.0" || message.method !== "session/update") return false;
  const params = message.params;
  return (
    isRecord(params) &&
    sameKeys(params, ["sessionId", "update"]) &&
    params.sessionId === sessionId &&
    isRecord(params.update)
  );
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const sameKeys = (value: Record<string, unknown>, keys: readonly string[]): boolean => {
  const own = Object.keys(value);
  return own.length === keys.length && keys.every((k) => Object.hasOwn(value, k));
};
