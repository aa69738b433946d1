/** A fresh SQLite journal in a temporary directory, and facts to fill it with. */
import { join } from "node:path";
import { buildConfigOptions } from "../../src/core/config/config-options.ts";
import { JournalError } from "../../src/journal/errors.ts";
import type { Fact } from "../../src/journal/facts/index.ts";
import { SqliteJournal } from "../../src/journal/sqlite-store.ts";
import type { Durability } from "../../src/journal/store.ts";
import { sandbox } from "./workspace.ts";

export function tempJournal(durability: Durability = "normal"): { journal: SqliteJournal; path: string; home: string } {
  const box = sandbox();
  const path = join(box.home, "journal.db");
  return { journal: new SqliteJournal(path, durability), path, home: box.home };
}

export const startFact = (cwd = "/work"): Fact => ({
  kind: "session_started",
  cwd,
  additionalDirectories: [],
  agentVersion: "test",
  systemPrompt: "You are a test.",
  tools: [],
  modes: { currentModeId: "default", availableModes: [{ id: "default", name: "Default" }] },
  configOptions: buildConfigOptions(
    { modeId: "default", model: { provider: "scripted", model: "plain" }, thoughtLevel: "medium" },
    [],
  ),
});

export const chunk = (text: string, messageId = "msg_1"): Fact => ({
  kind: "message_chunk",
  stepId: "step_1",
  messageId,
  stream: "answer",
  text,
});

/** Creates a session (SQLite commits it before this returns). */
export function createSession(journal: SqliteJournal, sessionId = "ses_test", cwd = "/work"): string {
  const at = new Date().toISOString();
  void journal.create({ sessionId, cwd, additionalDirectories: [], createdAt: at, updatedAt: at }, startFact(cwd));
  return sessionId;
}

/** The JournalError `run` throws or rejects with (the test fails if it throws nothing, or something else). */
export async function journalError(run: () => unknown): Promise<JournalError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof JournalError) return error;
    throw error;
  }
  throw new Error("expected a JournalError");
}
