/** Group commit for streamed text: chunks commit together, in order, and are shown only after their commit. */
import { describe, expect, test } from "bun:test";
import { ChunkBatch, MAX_BATCH, type PendingChunk } from "../../src/core/session/chunk-batch.ts";
import type { Fact } from "../../src/journal/facts/index.ts";
import { chunk } from "../support/journal.ts";

const at = "2026-01-01T00:00:00.000Z";
const texts = (chunks: PendingChunk[]) => chunks.map(({ fact }) => (fact as Extract<Fact, { kind: "message_chunk" }>).text);
const nextTurnOfTheEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("a batch of streamed chunks", () => {
  test("chunks recorded in a row commit together, in order, once the engine yields", async () => {
    const commits: string[][] = [];
    const batch = new ChunkBatch((chunks) => commits.push(texts(chunks)));
    batch.add(chunk("a"), at, 2);
    batch.add(chunk("b"), at, 3);
    expect(commits).toEqual([]);
    await nextTurnOfTheEventLoop();
    expect(commits).toEqual([["a", "b"]]);
  });

  test("each chunk gets the place it will take in the journal", () => {
    const batch = new ChunkBatch(() => undefined);
    expect(batch.add(chunk("a"), at, 7)).toEqual({ seq: 7, at, fact: chunk("a") });
  });

  test("a full batch commits at once", () => {
    const commits: number[] = [];
    const batch = new ChunkBatch((chunks) => commits.push(chunks.length));
    for (let i = 0; i < MAX_BATCH; i++) batch.add(chunk(String(i)), at, i + 2);
    expect(commits).toEqual([MAX_BATCH]);
    expect(batch.size).toBe(0);
  });

  test("flush commits what is pending; with nothing pending it commits nothing", () => {
    const commits: string[][] = [];
    const batch = new ChunkBatch((chunks) => commits.push(texts(chunks)));
    batch.flush();
    batch.add(chunk("a"), at, 2);
    batch.flush();
    expect(commits).toEqual([["a"]]);
  });

  test("a chunk waits no longer than the window while the engine keeps streaming", async () => {
    const commits: string[][] = [];
    const batch = new ChunkBatch((chunks) => commits.push(texts(chunks)));
    batch.add(chunk("a"), at, 2);
    batch.flushIfDue();
    expect(commits).toEqual([]);
    const start = performance.now();
    while (performance.now() - start < 1) {
      // Busy: the engine keeps streaming without yielding.
    }
    batch.flushIfDue();
    expect(commits).toEqual([["a"]]);
  });

  test("a commit that fails after the engine yielded surfaces at the next flush, once", async () => {
    const batch = new ChunkBatch(() => {
      throw new Error("disk full");
    });
    batch.add(chunk("a"), at, 2);
    await nextTurnOfTheEventLoop();
    expect(() => batch.flush()).toThrow("disk full");
    expect(() => batch.flush()).not.toThrow();
  });
});
