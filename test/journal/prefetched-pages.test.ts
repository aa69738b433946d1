/**
 * The pages a server store reads for a load: each asked for before the one before is handed on,
 * in order, ending at the first short page, and a caller that stops early is never told of the
 * failure of a page it did not read.
 */
import { describe, expect, test } from "bun:test";
import { prefetchedPages } from "../../src/journal/prefetched-pages.ts";

type Row = { fromSeq: number };

/** A table of `total` rows, one record each, read `pageRows` at a time; `asked` records each read's start. */
function table(total: number, pageRows: number, fail?: (fromSeq: number) => boolean) {
  const asked: number[] = [];
  const read = async (fromSeq: number): Promise<Row[]> => {
    asked.push(fromSeq);
    if (fail?.(fromSeq)) throw new Error(`read from ${fromSeq} failed`);
    const rows: Row[] = [];
    for (let seq = fromSeq; seq <= total && rows.length < pageRows; seq++) rows.push({ fromSeq: seq });
    return rows;
  };
  return { asked, read };
}

/** The unhandled rejections reported while `run` runs. */
async function unhandledDuring(run: () => Promise<unknown>): Promise<unknown[]> {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on("unhandledRejection", onUnhandled);
  try {
    await run();
  } finally {
    process.off("unhandledRejection", onUnhandled);
  }
  return unhandled;
}

describe("prefetched pages", () => {
  test("the next page is asked for before the one before it is handed on", async () => {
    const { asked, read } = table(10, 4);
    const pages = prefetchedPages(read, 4, 1);
    const first = (await pages.next()).value as Row[];
    expect(first.map((r) => r.fromSeq)).toEqual([1, 2, 3, 4]);
    expect(asked).toEqual([1, 5]);
  });

  test("hands on every row in order and stops after the first short page", async () => {
    const { asked, read } = table(10, 4);
    const seen: number[] = [];
    for await (const page of prefetchedPages(read, 4, 1)) seen.push(...page.map((r) => r.fromSeq));
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(asked).toEqual([1, 5, 9]);
  });

  test("a full last page is followed by one empty read, and nothing more is handed on", async () => {
    const { asked, read } = table(8, 4);
    let pages = 0;
    for await (const _ of prefetchedPages(read, 4, 1)) pages++;
    expect(pages).toBe(2);
    expect(asked).toEqual([1, 5, 9]);
  });

  test("a page that fails while the caller still writes the one before is its error when it reads it, and never an unhandled rejection", async () => {
    const { read } = table(10, 4, (from) => from === 5);
    const pages = prefetchedPages(read, 4, 1);
    await pages.next();
    // The caller writes the first page to its client meanwhile.
    expect(await unhandledDuring(() => Bun.sleep(10))).toEqual([]);
    await expect(pages.next()).rejects.toThrow("read from 5 failed");
  });

  test("a caller that stops early is not told of the failure of the page it did not read", async () => {
    const { asked, read } = table(10, 4, (from) => from === 5);
    const unhandled = await unhandledDuring(async () => {
      for await (const _ of prefetchedPages(read, 4, 1)) break;
      await Bun.sleep(10);
    });
    expect(asked).toEqual([1, 5]);
    expect(unhandled).toEqual([]);
  });
});
