/**
 * The line splitter in front of the SDK's NDJSON reader. The SDK ends the connection when a line
 * is longer than its limit; this guard drops such a line instead (its bytes are never buffered
 * past the limit) and answers it, so the connection stays up:
 * - a request (or a line whose kind cannot be read) gets a `-32600` error saying the message is
 *   too large, with the request's id when the start of the line names it, else `id: null`;
 * - a response to a request verbatim sent is replaced by an error response with its id, so the
 *   call waiting on it fails at once rather than waiting forever.
 * Lines within the limit reach the SDK unchanged, each chunk passed on whole when it ends at a
 * line boundary (the common case costs one scan for newlines).
 */
import { RequestError } from "@agentclientprotocol/sdk/unstable";
import { log } from "../shared/log.ts";
import { sniffEnvelope } from "./envelope-sniff.ts";

/** The SDK's own default: what a client may send in one message unless configured otherwise. */
export const DEFAULT_MAX_MESSAGE_BYTES = 32 * 1024 * 1024;

/** How much of an oversized line is kept to read its id from. */
const HEAD_BYTES = 4096;
const NEWLINE = 0x0a;

/**
 * The largest message a client may send: `VERBATIM_MAX_MESSAGE_BYTES` when it is a positive
 * integer (bytes), else the default.
 */
export function maxMessageBytes(env: Record<string, string | undefined> = process.env): number {
  const configured = env.VERBATIM_MAX_MESSAGE_BYTES;
  if (configured === undefined || configured === "") return DEFAULT_MAX_MESSAGE_BYTES;
  const bytes = Number(configured);
  if (Number.isSafeInteger(bytes) && bytes > 0) return bytes;
  log.warn(
    `VERBATIM_MAX_MESSAGE_BYTES=${configured} is not a positive number of bytes; using ${DEFAULT_MAX_MESSAGE_BYTES}`,
  );
  return DEFAULT_MAX_MESSAGE_BYTES;
}

/** A JSON-RPC message as written to the client. */
export type Answer = {
  jsonrpc: "2.0";
  id: string | number | null;
  error: { code: number; message: string; data?: unknown };
};

/**
 * Splits `input` into lines of at most `limit` bytes (not counting the newline) for the SDK's
 * reader. An oversized line is dropped: a request's answer goes to `answer`; a response is
 * replaced in the stream by an error response for the same id.
 */
export function guardLineLength(
  input: ReadableStream<Uint8Array>,
  limit: number,
  answer: (message: Answer) => void,
): ReadableStream<Uint8Array> {
  const guard = new LineGuard(limit, answer);
  return input.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform: (chunk, controller) => guard.push(chunk, (bytes) => controller.enqueue(bytes)),
      flush: (controller) => guard.end((bytes) => controller.enqueue(bytes)),
    }),
  );
}

type Emit = (bytes: Uint8Array) => void;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

class LineGuard {
  /** The start of the current line, carried from earlier chunks (while it is within the limit). */
  #carried: Uint8Array[] = [];
  #carriedBytes = 0;
  /** Set while dropping an oversized line: its first bytes and its length so far. */
  #dropping: { head: Uint8Array; bytes: number } | undefined;

  constructor(
    private readonly limit: number,
    private readonly answer: (message: Answer) => void,
  ) {}

  push(chunk: Uint8Array, emit: Emit): void {
    let start = 0;
    let newline = chunk.indexOf(NEWLINE);
    // The line that began in an earlier chunk.
    if (this.#dropping || this.#carriedBytes > 0) {
      if (newline === -1) {
        this.#extend(chunk);
        return;
      }
      const rest = chunk.subarray(0, newline);
      if (this.#dropping || this.#carriedBytes + rest.length > this.limit) {
        this.#extend(rest);
        this.#refuse(emit);
      } else {
        emit(this.#takeCarried(chunk.subarray(0, newline + 1)));
      }
      start = newline + 1;
      newline = chunk.indexOf(NEWLINE, start);
    }
    // Whole lines in this chunk: passed on as one piece, split only around an oversized line.
    let from = start;
    while (newline !== -1) {
      if (newline - start > this.limit) {
        if (start > from) emit(chunk.subarray(from, start));
        this.#dropping = { head: chunk.slice(start, start + HEAD_BYTES), bytes: newline - start };
        this.#refuse(emit);
        from = newline + 1;
      }
      start = newline + 1;
      newline = chunk.indexOf(NEWLINE, start);
    }
    if (start > from) emit(chunk.subarray(from, start));
    // The unterminated tail starts the next line.
    if (start < chunk.length) this.#extend(chunk.subarray(start));
  }

  /** End of input: an unterminated last line goes on to the SDK (which reads it) or is refused. */
  end(emit: Emit): void {
    if (this.#dropping) this.#refuse(emit);
    else if (this.#carriedBytes > 0) emit(this.#takeCarried(new Uint8Array(0)));
  }

  /** Adds bytes to the current line, switching to dropping it once it passes the limit. */
  #extend(bytes: Uint8Array): void {
    if (this.#dropping) {
      this.#dropping.bytes += bytes.length;
      return;
    }
    if (this.#carriedBytes + bytes.length <= this.limit) {
      // A copy: the chunk belongs to the stream's read, and only this part is kept.
      this.#carried.push(bytes.slice());
      this.#carriedBytes += bytes.length;
      return;
    }
    const head = concat([...this.#carried, bytes.subarray(0, Math.max(0, HEAD_BYTES - this.#carriedBytes))]).subarray(
      0,
      HEAD_BYTES,
    );
    this.#dropping = { head: head.slice(), bytes: this.#carriedBytes + bytes.length };
    this.#carried = [];
    this.#carriedBytes = 0;
  }

  #takeCarried(rest: Uint8Array): Uint8Array {
    const line = concat([...this.#carried, rest]);
    this.#carried = [];
    this.#carriedBytes = 0;
    return line;
  }

  /** Answers the line being dropped, and forgets it. */
  #refuse(emit: Emit): void {
    const dropped = this.#dropping;
    this.#dropping = undefined;
    if (!dropped) return;
    const envelope = sniffEnvelope(decoder.decode(dropped.head));
    const error = RequestError.invalidRequest(
      { reason: "message_too_large", bytes: dropped.bytes, limit: this.limit },
      `message too large: ${dropped.bytes} bytes, over the limit of ${this.limit} bytes`,
    ).toErrorResponse();
    log.warn(`dropped an incoming message of ${dropped.bytes} bytes (limit ${this.limit})`);
    if (envelope.response && envelope.id !== undefined && envelope.id !== null) {
      // The SDK settles the call that waits on this id, as if the client had answered with this error.
      emit(encoder.encode(`${JSON.stringify({ jsonrpc: "2.0", id: envelope.id, error })}\n`));
      return;
    }
    this.answer({ jsonrpc: "2.0", id: envelope.id ?? null, error });
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array;
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
