/** Work that follows a response runs once that response is written, never before. */
import type { AnyMessage } from "@agentclientprotocol/sdk/unstable";
import { describe, expect, test } from "bun:test";
import { AfterResponse } from "../../src/acp/after-response.ts";

/** A stream whose writes take `delayMs` each, logging what was written, in order. */
function slowStream(log: string[], delayMs = 5) {
  return {
    readable: new ReadableStream<AnyMessage>(),
    writable: new WritableStream<AnyMessage>({
      write: async (message) => {
        await Bun.sleep(delayMs);
        log.push(
          "method" in message ? `wrote ${message.method}` : `wrote response ${String((message as { id: unknown }).id)}`,
        );
      },
    }),
  };
}

describe("work after a response", () => {
  test("runs once the response to its request has been written, after what was written before it", async () => {
    const log: string[] = [];
    const responses = new AfterResponse();
    const writer = responses.watch(slowStream(log)).writable.getWriter();
    responses.then(7, () => log.push("then"));
    await writer.write({ jsonrpc: "2.0", method: "session/update", params: {} });
    expect(log).toEqual(["wrote session/update"]);
    const written = writer.write({ jsonrpc: "2.0", id: 7, result: {} });
    expect(log).toEqual(["wrote session/update"]);
    await written;
    expect(log).toEqual(["wrote session/update", "wrote response 7", "then"]);
  });

  test("waits for its own request's response, and runs once", async () => {
    const log: string[] = [];
    const responses = new AfterResponse();
    const writer = responses.watch(slowStream(log, 0)).writable.getWriter();
    responses.then(2, () => log.push("then"));
    await writer.write({ jsonrpc: "2.0", id: 1, result: {} });
    await writer.write({ jsonrpc: "2.0", id: 2, method: "fs/read_text_file", params: {} });
    expect(log).not.toContain("then");
    await writer.write({ jsonrpc: "2.0", id: 2, result: {} });
    await writer.write({ jsonrpc: "2.0", id: 2, result: {} });
    expect(log.filter((l) => l === "then")).toEqual(["then"]);
  });
});
