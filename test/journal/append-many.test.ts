/** Appending several facts in one transaction: all of them or none, with the same guards as one append. */
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { chunk, createSession, journalError, tempJournal } from "../support/journal.ts";

const at = (ms: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, 0, ms)).toISOString();

describe("appending several facts at once", () => {
  test("they take consecutive places and read back in order", async () => {
    const { journal } = tempJournal();
    const id = createSession(journal);
    const records = await journal.appendMany(id, 2, [
      { fact: chunk("a"), at: at(1) },
      { fact: chunk("b"), at: at(2) },
    ]);
    expect(records.map((r) => r.seq)).toEqual([2, 3]);
    expect([...journal.read(id)].map((r) => [r.seq, r.at])).toEqual([
      [1, expect.any(String)],
      [2, at(1)],
      [3, at(2)],
    ]);
  });

  test("a wrong first place writes none of them", async () => {
    const { journal } = tempJournal();
    const id = createSession(journal);
    expect(
      (
        await journalError(() =>
          journal.appendMany(id, 3, [
            { fact: chunk("a"), at: at(1) },
            { fact: chunk("b"), at: at(2) },
          ]),
        )
      ).code,
    ).toBe("stale_write");
    expect([...journal.read(id)].length).toBe(1);
  });

  test("the session is listed as updated at its last fact, with the title a title fact set", async () => {
    const { journal } = tempJournal();
    const id = createSession(journal);
    journal.appendMany(id, 2, [
      { fact: { kind: "title_set", title: "A title" }, at: at(5) },
      { fact: chunk("a"), at: at(9) },
    ]);
    expect(await journal.info(id)).toMatchObject({ title: "A title", updatedAt: at(9) });
  });

  test("another live process's lease refuses them all", async () => {
    const { journal, path } = tempJournal();
    const id = createSession(journal);
    const child = Bun.spawn(["sleep", "30"]);
    try {
      const db = new Database(path);
      db.run("UPDATE leases SET pid = ?, start_time = '' WHERE session_id = ?", [child.pid, id]);
      db.close();
      expect((await journalError(() => journal.appendMany(id, 2, [{ fact: chunk("a"), at: at(1) }]))).code).toBe(
        "busy",
      );
      expect([...journal.read(id)].length).toBe(1);
    } finally {
      child.kill(9);
      await child.exited;
    }
  });
});
