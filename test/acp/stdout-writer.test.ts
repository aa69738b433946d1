/**
 * The buffered stdout: what is written reaches the pipe in order, `afterWrite` and `flushAll` wait
 * for it, and a write waits only once the client is far behind.
 */
import { describe, expect, test } from "bun:test";
import { BACKLOG_BYTES, BufferedStdout, HIGH_WATER_BYTES } from "../../src/acp/stdout-writer.ts";
import { until } from "../support/acp-session.ts";
import { FakeSink } from "../support/fake-ends.ts";

describe("the buffered stdout", () => {
  test("afterWrite calls back on a later turn, once everything written before it is in the pipe", async () => {
    const sink = new FakeSink();
    const out = new BufferedStdout(sink);
    out.write("first\n");
    out.write("second\n");
    let seen: string | undefined;
    out.afterWrite(() => {
      seen = sink.text;
    });
    expect(seen).toBeUndefined();
    await until(() => seen !== undefined, "the callback");
    expect(seen).toBe("first\nsecond\n");
  });

  test("afterWrite waits while the pipe has not taken what was written", async () => {
    const sink = new FakeSink();
    sink.holdNextFlush();
    const out = new BufferedStdout(sink);
    void out.write("first\n");
    let called = false;
    out.afterWrite(() => {
      called = true;
    });
    await Bun.sleep(30);
    expect(called).toBe(false);
    sink.release();
    await until(() => called, "the callback");
  });

  test("lines given as bytes reach the pipe in order with text around them, as the bytes they are", async () => {
    const sink = new FakeSink();
    const out = new BufferedStdout(sink);
    const cached = new TextEncoder().encode('{"cached":"é"}\n');
    out.write("before\n");
    out.write(["gathered ", cached, "after\n"]);
    out.write("last\n");
    await out.flushAll();
    expect(sink.text).toBe('before\ngathered {"cached":"é"}\nafter\nlast\n');
    // The bytes are handed over as they are: never decoded to text and encoded again.
    expect(sink.writes).toContain(cached);
  });

  test("a write returns at once while less than the backlog waits for the pipe, and waits for the drain past it", async () => {
    const sink = new FakeSink();
    sink.holdNextFlush();
    const out = new BufferedStdout(sink);
    const chunk = `${"x".repeat(HIGH_WATER_BYTES - 1)}\n`;
    const writes = Math.ceil(BACKLOG_BYTES / chunk.length);
    // Each of these is handed to the pipe, which takes none of it: the client is behind.
    for (let i = 0; i < writes; i++) expect(out.write(chunk)).toBeUndefined();
    const waiting = out.write(chunk);
    expect(waiting).toBeInstanceOf(Promise);
    let drained = false;
    void waiting?.then(() => {
      drained = true;
    });
    await Bun.sleep(20);
    expect(drained).toBe(false);
    sink.release();
    await until(() => drained, "the drain");
    // Once drained, the backlog starts again from nothing.
    expect(out.write(chunk)).toBeUndefined();
  });

  test("flushAll waits for the pipe to take everything, however little is waiting", async () => {
    const sink = new FakeSink();
    sink.holdNextFlush();
    const out = new BufferedStdout(sink);
    out.write("small\n");
    let flushed = false;
    void out.flushAll().then(() => {
      flushed = true;
    });
    await Bun.sleep(20);
    expect(flushed).toBe(false);
    sink.release();
    await until(() => flushed, "the flush");
  });
});
