/**
 * Large prompt payloads (images, embedded resources) are stored once per session by content
 * hash, in an append-only blob table, and come back exactly as received when the session is read.
 */
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import type { ContentBlock } from "@agentclientprotocol/sdk";
import { sha256 } from "../../src/journal/blob-refs.ts";
import { JournalError } from "../../src/journal/errors.ts";
import type { Fact } from "../../src/journal/facts/index.ts";
import { SqliteJournal } from "../../src/journal/sqlite-store.ts";
import { createSession, tempJournal } from "../support/journal.ts";

const now = () => new Date().toISOString();
const PNG = Buffer.from("a tiny picture, standing in for PNG bytes ".repeat(40)).toString("base64");
const LONG_TEXT = "export const answer = 42;\n".repeat(100);

const blocks: ContentBlock[] = [
  { type: "text", text: "What is in this picture?" },
  { type: "image", data: PNG, mimeType: "image/png", uri: "file:///tmp/picture.png" },
  { type: "resource", resource: { uri: "file:///tmp/answer.ts", mimeType: "text/typescript", text: LONG_TEXT } },
  { type: "resource", resource: { uri: "file:///tmp/small.txt", text: "short stays inline" } },
  { type: "resource_link", uri: "file:///tmp/other.md", name: "other.md" },
];

const prompt = (turnId: string, content = blocks): Fact => ({
  kind: "prompt_received",
  turnId,
  messageId: `msg_${turnId}`,
  blocks: content,
});

const rows = (path: string, sql: string) => {
  const db = new Database(path, { readonly: true });
  try {
    return db.query<Record<string, unknown>, []>(sql).all();
  } finally {
    db.close();
  }
};

describe("blobs", () => {
  test("a prompt's image and long resource text are stored apart by hash and read back exactly", () => {
    const { journal, path } = tempJournal();
    const id = createSession(journal);
    journal.append(id, 2, prompt("turn_1"), now());
    const body = rows(path, `SELECT body FROM facts WHERE session_id = '${id}' AND seq = 2`)[0]?.body as string;
    expect(body).not.toContain(PNG);
    expect(body).not.toContain(LONG_TEXT);
    expect(body).toContain("short stays inline");
    const stored = rows(path, `SELECT sha256 FROM blobs WHERE session_id = '${id}' ORDER BY sha256`).map(
      (r) => r.sha256,
    );
    expect(stored).toEqual([sha256(PNG), sha256(LONG_TEXT)].sort());
    expect([...journal.read(id)][1]?.fact).toEqual(prompt("turn_1"));
  });

  test("the same image sent twice in a session is stored once", () => {
    const { journal, path } = tempJournal();
    const id = createSession(journal);
    journal.append(id, 2, prompt("turn_1"), now());
    journal.append(id, 3, prompt("turn_2"), now());
    expect(rows(path, "SELECT COUNT(*) AS n FROM blobs")[0]?.n).toBe(2);
    expect([...journal.read(id)].map((r) => r.fact)).toEqual([expect.anything(), prompt("turn_1"), prompt("turn_2")]);
  });

  test("blobs are append-only in the database, and deleting the session removes them", async () => {
    const { journal, path } = tempJournal();
    const id = createSession(journal);
    const other = createSession(journal, "ses_other");
    journal.append(id, 2, prompt("turn_1"), now());
    journal.append(other, 2, prompt("turn_1"), now());
    journal.close();
    const db = new Database(path);
    expect(() => db.run("UPDATE blobs SET data = 'x'")).toThrow(/append-only/);
    expect(() => db.run("DELETE FROM blobs WHERE session_id = ?", [id])).toThrow(/append-only/);
    db.close();
    const again = new SqliteJournal(path);
    expect(await again.delete(id)).toBe(true);
    expect(rows(path, `SELECT COUNT(*) AS n FROM blobs WHERE session_id = '${id}'`)[0]?.n).toBe(0);
    expect([...again.read(other)][1]?.fact).toEqual(prompt("turn_1"));
    again.close();
  });

  test("a record whose blob is missing is a clear error naming the record", () => {
    const { journal, path } = tempJournal();
    const id = createSession(journal);
    journal.append(id, 2, prompt("turn_1"), now());
    journal.close();
    const db = new Database(path);
    db.run("INSERT INTO deleting (session_id) VALUES (?)", [id]);
    db.run("DELETE FROM blobs WHERE session_id = ?", [id]);
    db.close();
    const reader = new SqliteJournal(path);
    let error: unknown;
    try {
      [...reader.read(id)];
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(JournalError);
    expect((error as JournalError).code).toBe("corrupt_record");
    expect((error as JournalError).message).toContain("record 2 (prompt_received)");
    reader.close();
  });

  test("an image a tool read, on its card and in its result, is stored once; a PDF's data is stored apart", () => {
    const { journal, path } = tempJournal();
    const id = createSession(journal);
    const PDF = Buffer.from("%PDF-1.4 standing in for a document ".repeat(40)).toString("base64");
    const finished: Fact = {
      kind: "tool_call_finished",
      toolCallId: "tc_1",
      status: "completed",
      content: [
        { type: "content", content: { type: "text", text: "Read image /tmp/a.png" } },
        { type: "content", content: { type: "image", data: PNG, mimeType: "image/png" } },
      ],
      result: {
        text: "Image /tmp/a.png",
        isError: false,
        attachments: [
          { type: "image", data: PNG, mimeType: "image/png" },
          { type: "document", data: PDF, mimeType: "application/pdf", name: "spec.pdf", text: "Page 1" },
        ],
      },
    };
    journal.append(id, 2, finished, now());
    const body = rows(path, `SELECT body FROM facts WHERE session_id = '${id}' AND seq = 2`)[0]?.body as string;
    expect(body).not.toContain(PNG);
    expect(body).not.toContain(PDF);
    const stored = rows(path, `SELECT sha256 FROM blobs WHERE session_id = '${id}' ORDER BY sha256`).map(
      (r) => r.sha256,
    );
    expect(stored).toEqual([sha256(PNG), sha256(PDF)].sort());
    expect([...journal.read(id)][1]?.fact).toEqual(finished);
  });
});

describe("layout 1 databases", () => {
  /** A journal as verbatim wrote it before blobs existed: no blob table, layout 1. */
  function layoutOne(): { path: string; id: string } {
    const { journal, path } = tempJournal();
    const id = createSession(journal);
    journal.close();
    const db = new Database(path);
    db.run("DROP TABLE blobs");
    db.run("UPDATE meta SET value = '1' WHERE key = 'layout'");
    db.close();
    return { path, id };
  }

  test("are read as they are by a process that only loads", () => {
    const { path, id } = layoutOne();
    const reader = new SqliteJournal(path);
    expect([...reader.read(id)].length).toBe(1);
    reader.close();
    expect(rows(path, "SELECT value FROM meta WHERE key = 'layout'")[0]?.value).toBe("1");
  });

  test("are upgraded in place by the first write, keeping every session", () => {
    const { path, id } = layoutOne();
    const writer = new SqliteJournal(path);
    writer.append(id, 2, prompt("turn_1"), now());
    expect([...writer.read(id)].map((r) => r.fact.kind)).toEqual(["session_started", "prompt_received"]);
    expect([...writer.read(id)][1]?.fact).toEqual(prompt("turn_1"));
    writer.close();
    expect(rows(path, "SELECT value FROM meta WHERE key = 'layout'")[0]?.value).toBe("2");
  });
});
