/** The line guard in front of the SDK's reader: oversized lines are answered and dropped, the rest pass unchanged. */
import { describe, expect, test } from "bun:test";
import { DEFAULT_MAX_MESSAGE_BYTES, guardLineLength, maxMessageBytes, type Answer } from "../../src/acp/line-guard.ts";
import { seededRandom } from "../support/seeded.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Runs `chunks` through a guard with `limit`; returns what reached the reader and what was answered. */
async function guard(chunks: (string | Uint8Array)[], limit: number) {
  const answers: Answer[] = [];
  const input = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(typeof chunk === "string" ? encoder.encode(chunk) : chunk);
      controller.close();
    },
  });
  const parts: Uint8Array[] = [];
  for await (const part of guardLineLength(input, limit, (a) => answers.push(a))) parts.push(part);
  return { passed: decoder.decode(Buffer.concat(parts)), answers };
}

/** Splits `text` into chunks at random places. */
function split(text: string, random: () => number): string[] {
  const chunks: string[] = [];
  let at = 0;
  while (at < text.length) {
    const size = 1 + Math.floor(random() * 40);
    chunks.push(text.slice(at, at + size));
    at += size;
  }
  return chunks;
}

const request = (id: unknown, params: unknown) =>
  JSON.stringify({ jsonrpc: "2.0", id, method: "session/prompt", params });

describe("lines within the limit", () => {
  test("pass through unchanged however the input is chunked", async () => {
    const random = seededRandom(7);
    const text =
      Array.from({ length: 50 }, (_, i) => request(i, { text: "x".repeat(Math.floor(random() * 90)) })).join("\n") +
      "\n";
    for (let round = 0; round < 20; round++) {
      const { passed, answers } = await guard(split(text, random), 200);
      expect(passed).toBe(text);
      expect(answers).toEqual([]);
    }
  });

  test("a line of exactly the limit passes; one byte more is refused", async () => {
    const exact = "a".repeat(100);
    expect((await guard([`${exact}\n`], 100)).passed).toBe(`${exact}\n`);
    const over = await guard([`${exact}a\n`], 100);
    expect(over.passed).toBe("");
    expect(over.answers).toHaveLength(1);
  });

  test("an unterminated last line is passed on at the end of input", async () => {
    expect((await guard(['{"a":', "1}"], 100)).passed).toBe('{"a":1}');
  });
});

describe("an oversized request", () => {
  const big = request(42, { text: "y".repeat(500) });

  test("is dropped and answered -32600 with its id and its size, in one chunk or many", async () => {
    const text = `${request(1, {})}\n${big}\n${request(2, {})}\n`;
    for (const chunks of [[text], split(text, seededRandom(3))]) {
      const { passed, answers } = await guard(chunks, 200);
      expect(passed).toBe(`${request(1, {})}\n${request(2, {})}\n`);
      expect(answers).toEqual([
        {
          jsonrpc: "2.0",
          id: 42,
          error: {
            code: -32600,
            message: `Invalid request: message too large: ${big.length} bytes, over the limit of 200 bytes`,
            data: { reason: "message_too_large", bytes: big.length, limit: 200 },
          },
        },
      ]);
    }
  });

  test("whose id cannot be read from its start is answered with id null", async () => {
    const idLast = JSON.stringify({
      jsonrpc: "2.0",
      method: "session/prompt",
      params: { text: "z".repeat(6000) },
      id: 9,
    });
    const { answers } = await guard([`${idLast}\n`], 1000);
    expect(answers.map((a) => a.id)).toEqual([null]);
  });

  test("that is not JSON at all is answered with id null", async () => {
    const { answers } = await guard([`${"\u00ff".repeat(300)}\n`], 100);
    expect(answers.map((a) => a.id)).toEqual([null]);
  });

  test("left unterminated at the end of input is still answered", async () => {
    const { passed, answers } = await guard([big.slice(0, 300), big.slice(300)], 200);
    expect(passed).toBe("");
    expect(answers.map((a) => a.id)).toEqual([42]);
  });

  test("counts CRLF line endings as part of the line", async () => {
    const { passed, answers } = await guard([`${"b".repeat(100)}\r\n${"c".repeat(99)}\r\n`], 100);
    expect(passed).toBe(`${"c".repeat(99)}\r\n`);
    expect(answers).toHaveLength(1);
  });
});

describe("an oversized response from the client", () => {
  test("is replaced in the stream by an error response for its id, and not answered", async () => {
    const response = JSON.stringify({ jsonrpc: "2.0", id: 7, result: { content: "w".repeat(500) } });
    const { passed, answers } = await guard([`${response}\n{"next":1}\n`], 200);
    expect(answers).toEqual([]);
    const [replaced, next] = passed.trimEnd().split("\n");
    expect(JSON.parse(replaced ?? "")).toMatchObject({
      jsonrpc: "2.0",
      id: 7,
      error: { code: -32600, data: { reason: "message_too_large" } },
    });
    expect(next).toBe('{"next":1}');
  });
});

describe("the limit", () => {
  test("is the SDK's 32 MiB unless VERBATIM_MAX_MESSAGE_BYTES sets a positive number of bytes", () => {
    expect(DEFAULT_MAX_MESSAGE_BYTES).toBe(32 * 1024 * 1024);
    expect(maxMessageBytes({})).toBe(DEFAULT_MAX_MESSAGE_BYTES);
    expect(maxMessageBytes({ VERBATIM_MAX_MESSAGE_BYTES: "4096" })).toBe(4096);
    expect(maxMessageBytes({ VERBATIM_MAX_MESSAGE_BYTES: "-1" })).toBe(DEFAULT_MAX_MESSAGE_BYTES);
    expect(maxMessageBytes({ VERBATIM_MAX_MESSAGE_BYTES: "lots" })).toBe(DEFAULT_MAX_MESSAGE_BYTES);
  });
});
