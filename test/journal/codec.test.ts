import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { RECORD_VERSION } from "../../src/journal/codec.ts";
import { JournalError } from "../../src/journal/errors.ts";
import { SqliteJournal } from "../../src/journal/sqlite-store.ts";
import { createSession, tempJournal } from "../support/journal.ts";

/** Writes a raw row behind the journal's back (the triggers still apply). */
function insertRaw(path: string, row: { session: string; seq: number; kind: string; v: number; body: string }) {
  const db = new Database(path);
  db.run("INSERT INTO facts (session_id, seq, kind, v, at, body) VALUES (?, ?, ?, ?, ?, ?)", [
    row.session,
    row.seq,
    row.kind,
    row.v,
    new Date().toISOString(),
    row.body,
  ]);
  db.close();
}

function readError(path: string, id: string): JournalError {
  const reader = new SqliteJournal(path);
  try {
    [...reader.read(id)];
  } catch (error) {
    if (error instanceof JournalError) return error;
    throw error;
  } finally {
    reader.close();
  }
  throw new Error("expected the read to fail");
}

describe("stored records", () => {
  test("a record from a newer format is a clear error naming the session and record", () => {
    const { journal, path } = tempJournal();
    const id = createSession(journal);
    journal.close();
    insertRaw(path, { session: id, seq: 2, kind: "message_chunk", v: RECORD_VERSION + 1, body: "{}" });
    const error = readError(path, id);
    expect(error.code).toBe("newer_record");
    expect(error.message).toContain(id);
    expect(error.message).toContain("record 2");
  });

  test("a record that fails its schema is a clear error naming the field", () => {
    const { journal, path } = tempJournal();
    const id = createSession(journal);
    journal.close();
    insertRaw(path, {
      session: id,
      seq: 2,
      kind: "message_chunk",
      v: 1,
      body: JSON.stringify({ stepId: "s", messageId: "m", stream: "answer", text: 42 }),
    });
    const error = readError(path, id);
    expect(error.code).toBe("corrupt_record");
    expect(error.message).toContain("record 2");
    expect(error.message).toContain("text");
  });

  test("a record that is not JSON is a clear error", () => {
    const { journal, path } = tempJournal();
    const id = createSession(journal);
    journal.close();
    insertRaw(path, { session: id, seq: 2, kind: "message_chunk", v: 1, body: "{not json" });
    expect(readError(path, id).code).toBe("corrupt_record");
  });

  test("an unknown fact kind is a clear error, not a silent skip", () => {
    const { journal, path } = tempJournal();
    const id = createSession(journal);
    journal.close();
    insertRaw(path, { session: id, seq: 2, kind: "telepathy", v: 1, body: "{}" });
    expect(readError(path, id).code).toBe("corrupt_record");
  });

  test("a broken session leaves other sessions readable", () => {
    const { journal, path } = tempJournal();
    const broken = createSession(journal, "ses_broken");
    const fine = createSession(journal, "ses_fine");
    journal.close();
    insertRaw(path, { session: broken, seq: 2, kind: "message_chunk", v: 99, body: "{}" });
    expect(readError(path, broken).code).toBe("newer_record");
    const reader = new SqliteJournal(path);
    expect([...reader.read(fine)].length).toBe(1);
    reader.close();
  });
});
