/** The store's fork: an exact copy of a session's records up to a point, under a new id, with its origin. */
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { forkSession } from "../../src/core/session/fork.ts";
import { EngineError } from "../../src/core/errors.ts";
import type { Fact } from "../../src/journal/facts/index.ts";
import { SqliteJournal } from "../../src/journal/sqlite-store.ts";
import { chunk, createSession, startFact, tempJournal } from "../support/journal.ts";

const image: Fact = {
  kind: "prompt_received",
  turnId: "turn_1",
  messageId: "msg_p",
  blocks: [{ type: "image", mimeType: "image/png", data: "iVBORw0KGgo".repeat(2000) }],
};

describe("forking in the journal", () => {
  test("copies every record (times, facts, payloads) and then records where the fork came from", async () => {
    const { journal } = tempJournal();
    const parent = createSession(journal);
    journal.append(parent, 2, image, "2026-01-01T00:00:02.000Z");
    journal.append(parent, 3, chunk("hello"), "2026-01-01T00:00:03.000Z");
    const { sessionId, forkOf } = await forkSession(journal, parent, false);
    expect(forkOf).toEqual({ sessionId: parent, seq: 3 });
    const copied = [...journal.read(sessionId)];
    expect(copied.slice(0, 3)).toEqual([...journal.read(parent)]);
    expect(copied[3]?.fact).toEqual({ kind: "session_forked", fromSessionId: parent, fromSeq: 3 });
    expect(await journal.info(sessionId)).toMatchObject({ forkOf, cwd: "/work" });
    expect((await journal.info(sessionId))?.parentSessionId).toBeUndefined();
    // A fork is a session of its own: listed (it has the source's prompt), and not deleted with its source.
    expect((await journal.list({ limit: 10 })).map((r) => r.sessionId).sort()).toEqual([parent, sessionId].sort());
    await journal.delete(parent);
    expect([...journal.read(sessionId)].length).toBe(4);
    journal.close();
  });

  test("a subagent's session is not forked on its own", async () => {
    const { journal } = tempJournal();
    const parent = createSession(journal);
    const at = new Date().toISOString();
    journal.create(
      {
        sessionId: "ses_child",
        cwd: "/work",
        additionalDirectories: [],
        createdAt: at,
        updatedAt: at,
        parentSessionId: parent,
      },
      startFact(),
    );
    await expect(forkSession(journal, "ses_child", false)).rejects.toThrow(EngineError);
    expect((await journal.list({ limit: 10 })).map((r) => r.sessionId)).toEqual([]);
    expect(await journal.info("ses_child")).toBeDefined();
    journal.close();
  });

  test("a database from before forks gains the origin column when first written, and keeps its sessions", async () => {
    const { journal, path } = tempJournal();
    const parent = createSession(journal);
    journal.close();
    const db = new Database(path);
    db.run("ALTER TABLE sessions DROP COLUMN forked_from");
    db.close();
    const reopened = new SqliteJournal(path);
    expect((await reopened.info(parent))?.forkOf).toBeUndefined();
    const { sessionId } = await forkSession(reopened, parent, false);
    expect((await reopened.info(sessionId))?.forkOf).toEqual({ sessionId: parent, seq: 1 });
    reopened.close();
  });
});
