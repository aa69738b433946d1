/**
 * followRecords over a journal that lost its last appends after they were followed (a PostgreSQL
 * server's crash with asynchronous commit): the writer goes on from what the journal holds,
 * writing new records under the lost ones' numbers, and the follower goes on with it.
 */
import { describe, expect, test } from "bun:test";
import type { StoredFact } from "../../src/journal/facts/index.ts";
import { FollowCursor, followRecords } from "../../src/journal/follow.ts";
import type { ChangeListener } from "../../src/journal/journal-watch.ts";
import { chunk } from "../support/journal.ts";

/**
 * A journal held in memory, as lastSeq and readPages see it; its watcher says "look" every
 * millisecond, or (`quiet`) never: nothing more is committed.
 */
function journal(records: StoredFact[], { quiet = false } = {}) {
  return {
    records,
    watch(_sessionId: string, listener: ChangeListener) {
      if (quiet) return () => undefined;
      const ticks = setInterval(() => listener({ kind: "any" }), 1);
      return () => clearInterval(ticks);
    },
    lastSeq: async () => records.length,
    async *readPages(_sessionId: string, fromSeq = 1) {
      yield records.slice(fromSeq - 1);
    },
  };
}

const record = (seq: number, text: string): StoredFact => ({
  seq,
  at: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, seq)).toISOString(),
  fact: chunk(text),
});
const rewritten = (seq: number, text: string): StoredFact => ({
  ...record(seq, text),
  at: `2026-01-02T00:00:00.${String(seq).padStart(3, "0")}Z`,
});

async function follow(
  store: ReturnType<typeof journal>,
  cursor: FollowCursor,
  until: (seen: StoredFact[]) => boolean,
  change?: () => void,
) {
  const stop = new AbortController();
  // A following that never sees what it waits for ends, for the test to say what it saw.
  const deadline = setTimeout(() => stop.abort(), 5000);
  const seen: StoredFact[] = [];
  let changed = false;
  for await (const page of followRecords(store, "ses_x", cursor, { signal: stop.signal, intervalMs: 1 })) {
    seen.push(...page);
    if (!changed && change) {
      change();
      changed = true;
    }
    if (until(seen)) stop.abort();
  }
  clearTimeout(deadline);
  return seen;
}

describe("following a journal that lost its last appends", () => {
  test("records rewritten under followed numbers are sent, from the first the journal lost", async () => {
    const store = journal(Array.from({ length: 10 }, (_, i) => record(i + 1, `old ${i + 1}`)));
    const cursor = new FollowCursor();
    for (const r of store.records.slice(0, 8)) cursor.took(r);
    const seen = await follow(
      store,
      cursor,
      (s) => s.some((r) => r.fact.kind === "message_chunk" && r.fact.text === "new 12"),
      () => {
        // The crash kept records 1 to 3; the writer went on from there.
        store.records.splice(3);
        for (let seq = 4; seq <= 12; seq++) store.records.push(rewritten(seq, `new ${seq}`));
      },
    );
    const texts = seen.map((r) => (r.fact.kind === "message_chunk" ? r.fact.text : ""));
    expect(texts).toEqual(["old 9", "old 10", ...Array.from({ length: 9 }, (_, i) => `new ${i + 4}`)]);
  });

  test("a journal shorter than what was followed is followed from its end", async () => {
    const store = journal(Array.from({ length: 5 }, (_, i) => record(i + 1, `old ${i + 1}`)));
    const cursor = new FollowCursor();
    for (const r of store.records) cursor.took(r);
    store.records.splice(2);
    setTimeout(() => store.records.push(rewritten(3, "new 3")), 20);
    const seen = await follow(store, cursor, (s) => s.length > 0);
    expect(seen.map((r) => r.seq)).toEqual([3]);
    expect(cursor.last).toBe(3);
  });

  test("a journal rewritten back to the number of records followed is found out at the next start of following", async () => {
    // The crash lost records 3 to 5 and the writer's next turn wrote three records in their
    // place: the journal's end is the follower's, so only the records' look tells.
    const store = journal(Array.from({ length: 5 }, (_, i) => record(i + 1, `old ${i + 1}`)));
    const cursor = new FollowCursor();
    for (const r of store.records) cursor.took(r);
    store.records.splice(2);
    for (let seq = 3; seq <= 5; seq++) store.records.push(rewritten(seq, `new ${seq}`));
    const seen = await follow(store, cursor, (s) => s.length >= 3);
    expect(seen.map((r) => (r.fact.kind === "message_chunk" ? r.fact.text : ""))).toEqual(["new 3", "new 4", "new 5"]);
  });

  test("records already rewritten under lost numbers are read at once, with no later commit to wake the follower", async () => {
    const store = journal(
      Array.from({ length: 5 }, (_, i) => record(i + 1, `old ${i + 1}`)),
      { quiet: true },
    );
    const cursor = new FollowCursor();
    for (const r of store.records) cursor.took(r);
    store.records.splice(2);
    for (let seq = 3; seq <= 4; seq++) store.records.push(rewritten(seq, `new ${seq}`));
    const seen = await follow(store, cursor, (s) => s.length >= 2);
    expect(seen.map((r) => (r.fact.kind === "message_chunk" ? r.fact.text : ""))).toEqual(["new 3", "new 4"]);
  });

  test("records rewritten back to the number followed while following are found out once the watcher says changes may have been missed", async () => {
    // A PostgreSQL server restarted between two looks (its listen reconnected): the writer's next
    // turn wrote as many records as the crash lost, so the journal's end did not move.
    const store = journal(Array.from({ length: 5 }, (_, i) => record(i + 1, `old ${i + 1}`)));
    const cursor = new FollowCursor();
    for (const r of store.records) cursor.took(r);
    let listener: ChangeListener | undefined;
    const watched = {
      ...store,
      watch: (_sessionId: string, l: ChangeListener) => {
        listener = l;
        return () => undefined;
      },
    };
    setTimeout(() => {
      store.records.splice(2);
      for (let seq = 3; seq <= 5; seq++) store.records.push(rewritten(seq, `new ${seq}`));
      // An ordinary wake first: the end is the follower's, nothing is read.
      listener?.({ kind: "any" });
      setTimeout(() => listener?.({ kind: "any", missed: true }), 20);
    }, 20);
    const seen = await follow(watched, cursor, (s) => s.length >= 3);
    expect(seen.map((r) => (r.fact.kind === "message_chunk" ? r.fact.text : ""))).toEqual(["new 3", "new 4", "new 5"]);
  });
});
