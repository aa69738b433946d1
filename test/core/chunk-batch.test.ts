/** Group commit for streamed text: when chunks recorded in a row are handed over to be committed together. */
import { describe, expect, test } from "bun:test";
import { ChunkBatch, MAX_BATCH, type PendingChunk } from "../../src/core/session/chunk-batch.ts";
import type { Fact } from "../../src/journal/facts/index.ts";
import { chunk } from "../support/journal.ts";

const at = "2026-01-01T00:00:00.000Z";
const texts = (chunks: PendingChunk[]) =>
  chunks.map(({ fact }) => (fact as Extract<Fact, { kind: "message_chunk" }>).text);
const nextTurnOfTheEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("a batch of streamed chunks", () => {
  test("chunks recorded in a row are handed over together, in order, once the engine yields", async () => {
    const batches: string[][] = [];
    const batch = new ChunkBatch((chunks) => batches.push(texts(chunks)));
    batch.add(chunk("a"), at);
    batch.add(chunk("b"), at);
    expect(batches).toEqual([]);
    await nextTurnOfTheEventLoop();
    expect(batches).toEqual([["a", "b"]]);
  });

  test("a full batch is handed over at once", () => {
    const batches: number[] = [];
    const batch = new ChunkBatch((chunks) => batches.push(chunks.length));
    for (let i = 0; i < MAX_BATCH; i++) batch.add(chunk(String(i)), at);
    expect(batches).toEqual([MAX_BATCH]);
    expect(batch.size).toBe(0);
  });

  test("take empties the batch; what was taken is not handed over again", async () => {
    const batches: string[][] = [];
    const batch = new ChunkBatch((chunks) => batches.push(texts(chunks)));
    expect(batch.take()).toEqual([]);
    batch.add(chunk("a"), at);
    expect(texts(batch.take())).toEqual(["a"]);
    await nextTurnOfTheEventLoop();
    expect(batches).toEqual([]);
  });

  test("a chunk waits no longer than the window while the engine keeps streaming", () => {
    const batches: string[][] = [];
    const batch = new ChunkBatch((chunks) => batches.push(texts(chunks)));
    batch.add(chunk("a"), at);
    batch.flushIfDue();
    expect(batches).toEqual([]);
    const start = performance.now();
    while (performance.now() - start < 1) {
      // Busy: the engine keeps streaming without yielding.
    }
    batch.flushIfDue();
    expect(batches).toEqual([["a"]]);
  });
});
