/**
 * The PostgreSQL store keeps a replay cache row's lines packed (src/journal/postgres-packed-lines.ts):
 * one zstd frame in base64, unpacked to the lines as they were, text or bytes; a row kept as text
 * before reads as it was; and only a single frame that states a size within the bound, and ends
 * where the value ends, is ever decompressed (anything else comes back as stored, for the row's
 * checksum or seal to refuse).
 */
import { SQL } from "bun";
import { describe, expect, test } from "bun:test";
import { once } from "node:events";
import { createZstdCompress } from "node:zlib";
import {
  MAX_LINES_BYTES,
  packLines,
  unpackLines,
  unpackLinesForLoad,
} from "../../src/journal/postgres-packed-lines.ts";
import { PostgresJournal } from "../../src/journal/postgres-store.ts";
import { withChecksum, type ReplayCacheKey } from "../../src/journal/replay-cache.ts";
import { startFact } from "../support/journal.ts";
import { freshDatabase } from "../support/postgres-server.ts";

const LINES = `${'{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"ses_1","update":{}}}\n'.repeat(200)}`;
const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
const frame = (text: string) => Bun.zstdCompressSync(Buffer.from(text));

/** How many times `run` has the decoder decompress anything. */
function decompressions(run: () => void): number {
  const original = Bun.zstdDecompressSync;
  let calls = 0;
  Bun.zstdDecompressSync = ((...args: Parameters<typeof original>) => {
    calls++;
    return original(...args);
  }) as typeof original;
  try {
    run();
  } finally {
    Bun.zstdDecompressSync = original;
  }
  return calls;
}

/** A frame written by a streaming compressor, which does not know the size when it starts: none is stated. */
async function streamedFrame(text: string): Promise<Buffer> {
  const compressor = createZstdCompress();
  const chunks: Buffer[] = [];
  compressor.on("data", (chunk: Buffer) => chunks.push(chunk));
  compressor.end(Buffer.from(text));
  await once(compressor, "end");
  return Buffer.concat(chunks);
}

describe("a row's lines packed for the PostgreSQL store", () => {
  test("unpack to the lines as they were, as text and as the bytes a load writes", () => {
    const packed = packLines(LINES);
    expect(packed.length).toBeLessThan(LINES.length / 4);
    expect(decompressions(() => expect(unpackLines(packed)).toBe(LINES))).toBe(1);
    expect(Buffer.from(unpackLinesForLoad(packed) as Uint8Array).toString("utf8")).toBe(LINES);
  });

  test("lines kept as text before read as they were", () => {
    expect(unpackLines(LINES)).toBe(LINES);
    expect(unpackLinesForLoad(LINES)).toBe(LINES);
  });

  test("a frame that does not state its size is not decompressed", async () => {
    const unsized = await streamedFrame(LINES);
    expect((unsized[4] as number) & 0xe0).toBe(0);
    expect(Bun.zstdDecompressSync(unsized).length).toBe(LINES.length);
    expect(decompressions(() => expect(unpackLines(base64(unsized))).toBe(base64(unsized)))).toBe(0);
  });

  test("a frame followed by another frame is not decompressed", () => {
    const two = base64(Buffer.concat([frame("{}\n"), frame("x".repeat(1_000_000))]));
    expect(decompressions(() => expect(unpackLinesForLoad(two)).toBe(two))).toBe(0);
  });

  test("a frame stating more than the bound is not decompressed", () => {
    const claimed = Buffer.from(frame("{}\n".repeat(30_000)));
    const descriptor = claimed[4] as number;
    expect(descriptor >> 6).toBe(2);
    const sizeAt = 5 + (descriptor & 0x20 ? 0 : 1) + ([0, 1, 2, 4][descriptor & 3] as number);
    claimed.writeUInt32LE(MAX_LINES_BYTES + 1, sizeAt);
    expect(decompressions(() => expect(unpackLines(base64(claimed))).toBe(base64(claimed)))).toBe(0);
  });

  test("a cut frame comes back as stored", () => {
    const packed = packLines(LINES);
    const cut = base64(Buffer.from(packed, "base64").subarray(0, -8));
    expect(decompressions(() => expect(unpackLines(cut)).toBe(cut))).toBe(0);
  });
});

describe("the PostgreSQL store's replay cache rows", () => {
  const KEY: ReplayCacheKey = { version: 1, capabilities: "notices=0;compaction=0" };

  test("are kept packed, and read back as the lines stored", async () => {
    const url = await freshDatabase();
    const store = new PostgresJournal(url);
    const sql = new SQL(url, { max: 1 });
    try {
      const when = new Date().toISOString();
      await store.create(
        { sessionId: "ses_packed", cwd: "/work", additionalDirectories: [], createdAt: when, updatedAt: when },
        startFact("/work"),
      );
      await store.putReplayCache("ses_packed", KEY, {
        rows: [withChecksum({ ...KEY, fromSeq: 1, toSeq: 1, lines: LINES })],
        parts: [],
      });
      const [stored] = (await sql`SELECT lines FROM verbatim.replay_cache WHERE session_id = 'ses_packed'`) as {
        lines: string;
      }[];
      expect(stored?.lines.startsWith("KLUv/")).toBe(true);
      expect(stored?.lines.length).toBeLessThan(LINES.length / 4);
      expect((await store.readReplayCache("ses_packed", KEY)).map((r) => r.lines)).toEqual([LINES]);
      // A row as an older verbatim kept it: its lines as text.
      await sql`UPDATE verbatim.replay_cache SET lines = ${LINES} WHERE session_id = 'ses_packed'`;
      expect((await store.readReplayCache("ses_packed", KEY)).map((r) => r.lines)).toEqual([LINES]);
    } finally {
      await sql.close();
      await store.close();
    }
  });
});
