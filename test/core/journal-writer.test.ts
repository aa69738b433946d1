/** The journal writer: facts committed, then shown, in the order recorded; chunks committed in groups; no failure lost. */
import { describe, expect, test } from "bun:test";
import { JournalWriter } from "../../src/core/session/journal-writer.ts";
import type { Fact, StoredFact } from "../../src/journal/facts/index.ts";
import { chunk, startFact, tempJournal } from "../support/journal.ts";

const notice = (title: string): Fact => ({ kind: "notice_shown", messageId: `msg_${title}`, severity: "info", title });
const nextTurnOfTheEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

async function writerOn() {
  const { journal } = tempJournal();
  const shown: StoredFact[] = [];
  let unjournaled = 0;
  const writer = new JournalWriter("ses_w", journal, {
    absorb: () => undefined,
    publish: (record) => {
      const stored = [...journal.read("ses_w", record.seq)][0];
      if (!stored || !Bun.deepEquals(stored.fact, record.fact)) unjournaled++;
      shown.push(record);
    },
  });
  const at = new Date().toISOString();
  await writer.create(
    { sessionId: "ses_w", cwd: "/work", additionalDirectories: [], createdAt: at, updatedAt: at },
    startFact(),
  );
  return { journal, writer, shown, unjournaled: () => unjournaled };
}

describe("the journal writer", () => {
  test("facts recorded without waiting are committed, then shown, in the order recorded", async () => {
    const { writer, shown, unjournaled } = await writerOn();
    const writes = [
      writer.record(notice("a")),
      writer.record(chunk("b")),
      writer.record(notice("c")),
      writer.record(chunk("d")),
    ];
    await Promise.all(writes);
    await writer.flush();
    expect(shown.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(
      shown
        .slice(1)
        .map((r) =>
          r.fact.kind === "notice_shown" ? r.fact.title : r.fact.kind === "message_chunk" ? r.fact.text : "",
        ),
    ).toEqual(["a", "b", "c", "d"]);
    expect(unjournaled()).toBe(0);
  });

  test("chunks recorded in a row are committed in one transaction, before the fact after them", async () => {
    const { journal, writer, shown } = await writerOn();
    const batches: number[] = [];
    const appendMany = journal.appendMany.bind(journal);
    journal.appendMany = (sessionId, firstSeq, facts) => {
      batches.push(facts.length);
      return appendMany(sessionId, firstSeq, facts);
    };
    for (const text of ["a", "b", "c"]) await writer.record(chunk(text));
    expect(shown.length).toBe(1);
    await writer.record(notice("after"));
    expect(batches).toEqual([3]);
    expect(shown.map((r) => r.fact.kind)).toEqual([
      "session_started",
      "message_chunk",
      "message_chunk",
      "message_chunk",
      "notice_shown",
    ]);
  });

  test("a chunk commit nobody waited for that fails makes the next record fail with its error, once", async () => {
    const { journal, writer, shown } = await writerOn();
    journal.appendMany = async () => {
      throw new Error("disk full");
    };
    await writer.record(chunk("lost"));
    await nextTurnOfTheEventLoop();
    await nextTurnOfTheEventLoop();
    await expect(writer.record(notice("next"))).rejects.toThrow("disk full");
    await writer.flush();
    expect(shown.length).toBe(1);
  });
});
