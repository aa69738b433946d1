/** Journal first, then send: whatever the client was shown is already in the journal when it arrives. */
import { join } from "node:path";
import { describe, expect, test } from "bun:test";
import { SqliteJournal } from "../../src/journal/sqlite-store.ts";
import { connectInProcess, newSession, prompt } from "../support/acp-session.ts";
import { sandbox } from "../support/workspace.ts";

describe("journal first, then send", () => {
  test("every streamed chunk is committed before the client receives it", async () => {
    const box = sandbox("scripted/thinking");
    const c = await connectInProcess(box.env);
    const { sessionId } = await newSession(c.ctx, box.workspace);
    // A second connection to the database, as another process would have: it sees only commits.
    const reader = new SqliteJournal(join(box.home, "journal.db"));
    const missing: string[] = [];
    let chunks = 0;
    c.client.onUpdate = ({ update }) => {
      if (update.sessionUpdate !== "agent_message_chunk" && update.sessionUpdate !== "agent_thought_chunk") return;
      if (update.content.type !== "text") return;
      chunks++;
      const text = update.content.text;
      const stored = [...reader.read(sessionId)].some(
        ({ fact }) => fact.kind === "message_chunk" && fact.messageId === update.messageId && fact.text === text,
      );
      if (!stored) missing.push(text);
    };
    await prompt(c.ctx, sessionId, "go");
    expect(chunks).toBeGreaterThan(5);
    expect(missing).toEqual([]);
    reader.close();
    await c.close();
  });
});
