/** The journal writer: facts committed, then shown, in the order recorded; chunks committed in groups; no failure lost. */
import { describe, expect, test } from "bun:test";
import { JournalWriter } from "../../src/core/session/journal-writer.ts";
import { JournalError } from "../../src/journal/errors.ts";
import type { Fact, StoredFact } from "../../src/journal/facts/index.ts";
import { chunk, startFact, tempJournal } from "../support/journal.ts";

const notice = (title: string): Fact => ({ kind: "notice_shown", messageId: `msg_${title}`, severity: "info", title });
const unreachable = () =>
  new JournalError("unreachable", "the journal's PostgreSQL server at db:5432 cannot be reached");
const nextTurnOfTheEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

async function writerOn() {
  const { journal } = tempJournal();
  const shown: StoredFact[] = [];
  let unjournaled = 0;
  const writer = new JournalWriter("ses_w", journal, {
    absorb: () => undefined,
    reset: () => undefined,
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
    // The chunks in one transaction, then the notice (an append is a batch of one).
    expect(batches).toEqual([3, 1]);
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

  test("a journal that cannot be reached fails every write at once, without trying it again, until reconnect; chunks waiting for it are never shown", async () => {
    const { journal, writer, shown } = await writerOn();
    const append = journal.append.bind(journal);
    const appendMany = journal.appendMany.bind(journal);
    let tries = 0;
    let down = true;
    journal.append = (...args) => {
      tries++;
      return down ? Promise.reject(unreachable()) : append(...args);
    };
    journal.appendMany = (...args) => {
      tries++;
      return down ? Promise.reject(unreachable()) : appendMany(...args);
    };
    await writer.record(chunk("never shown"));
    await expect(writer.record(notice("first"))).rejects.toThrow("cannot be reached");
    expect(writer.lost).toBe(true);
    const triedWhileUp = tries;
    await expect(writer.record(notice("second"))).rejects.toThrow("cannot be reached");
    await expect(writer.record(chunk("nor this"))).rejects.toThrow("cannot be reached");
    expect(tries).toBe(triedWhileUp);
    down = false;
    writer.reconnect();
    await writer.record(notice("back"));
    await writer.flush();
    expect(shown.map((r) => (r.fact.kind === "notice_shown" ? r.fact.title : r.fact.kind))).toEqual([
      "session_started",
      "back",
    ]);
  });

  test("a fact shown while the journal cannot be reached is recorded first at the next write after reconnect, where it was shown", async () => {
    const { journal, writer, shown } = await writerOn();
    const append = journal.append.bind(journal);
    journal.append = () => Promise.reject(unreachable());
    await expect(writer.record(notice("cut"))).rejects.toThrow("cannot be reached");
    await writer.showUnrecorded(notice("the journal cannot be reached"));
    expect(shown.at(-1)?.seq).toBe(2);
    expect([...journal.read("ses_w", 2)]).toEqual([]);
    journal.append = append;
    writer.reconnect();
    await writer.record(notice("next turn"));
    const stored = [...journal.read("ses_w")].map((r) => (r.fact.kind === "notice_shown" ? r.fact.title : r.fact.kind));
    expect(stored).toEqual(["session_started", "the journal cannot be reached", "next turn"]);
    expect(shown.map((r) => r.seq)).toEqual([1, 2, 3]);
  });
});
