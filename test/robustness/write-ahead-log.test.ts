/**
 * The journal's write-ahead log, seen from outside the agent process: it stays within its bound
 * through turns run back to back with no pause (a fast local model, a CI run), and a clean stop
 * (stdin closed, SIGTERM, SIGHUP) folds it into the database and truncates it, even when another
 * process has the journal open, so later processes do not read through it. The bound is made
 * small here (VERBATIM_WAL_BOUND_MB) so that a few hundred turns cross it many times over.
 */
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { statSync } from "node:fs";
import { join } from "node:path";
import { initializedRawAgent, type RawAgent } from "../support/raw-client.ts";
import { sandbox } from "../support/workspace.ts";

const walSize = (journal: string): number => statSync(`${journal}-wal`, { throwIfNoEntry: false })?.size ?? 0;

async function agentWithSession(env: Record<string, string>, cwd: string): Promise<{ agent: RawAgent; id: string }> {
  const agent = await initializedRawAgent(env);
  const created = await agent.request("session/new", { cwd, mcpServers: [] });
  return { agent, id: (created.result as { sessionId: string }).sessionId };
}

/** Sends `turns` prompts, each the moment the previous one is answered; returns the largest log seen. */
async function backToBack(agent: RawAgent, id: string, turns: number, journal: string): Promise<number> {
  let largest = 0;
  for (let t = 0; t < turns; t++) {
    const answer = await agent.request("session/prompt", {
      sessionId: id,
      prompt: [{ type: "text", text: `turn ${t}` }],
    });
    expect(answer.error).toBeUndefined();
    largest = Math.max(largest, walSize(journal));
  }
  return largest;
}

/** The session's turns as a fresh reader sees them. */
function endedTurns(journal: string, id: string): number {
  const db = new Database(journal, { readonly: true });
  try {
    const row = db
      .query<{ n: number }, [string]>("SELECT count(*) AS n FROM facts WHERE session_id = ? AND kind = 'turn_ended'")
      .get(id);
    return row?.n ?? 0;
  } finally {
    db.close();
  }
}

describe("the write-ahead log", () => {
  test("stays within its bound through turns run back to back, with no pause in which the writer is idle", async () => {
    const box = sandbox("scripted/plain");
    const journal = join(box.home, "journal.db");
    const { agent, id } = await agentWithSession({ ...box.env, VERBATIM_WAL_BOUND_MB: "1" }, box.workspace);
    // About 120 KB of log a turn: 300 turns would leave some 36 MB unfolded.
    const largest = await backToBack(agent, id, 300, journal);
    expect(largest).toBeLessThanOrEqual(1024 * 1024);
    agent.endInput();
    expect(await agent.exited).toBe(0);
    expect(endedTurns(journal, id)).toBe(300);
  }, 60_000);

  for (const signal of ["SIGTERM", "SIGHUP"] as const) {
    test(`is folded into the database and truncated when the agent is stopped by ${signal}`, async () => {
      const box = sandbox("scripted/plain");
      const journal = join(box.home, "journal.db");
      const { agent, id } = await agentWithSession(box.env, box.workspace);
      await backToBack(agent, id, 20, journal);
      expect(walSize(journal)).toBeGreaterThan(0);
      process.kill(agent.pid, signal);
      await agent.exited;
      expect(walSize(journal)).toBe(0);
      expect(endedTurns(journal, id)).toBe(20);
    }, 30_000);
  }

  test("is folded and truncated when the client closes stdin, though another process has the journal open", async () => {
    const box = sandbox("scripted/plain");
    const journal = join(box.home, "journal.db");
    const { agent, id } = await agentWithSession(box.env, box.workspace);
    await backToBack(agent, id, 20, journal);
    // An idle connection elsewhere (another agent, `verbatim sessions`): the agent's connection is
    // then not the last to close, which alone would leave the log in place.
    const other = new Database(journal, { readonly: true });
    try {
      other.query("SELECT count(*) FROM sessions").get();
      agent.endInput();
      expect(await agent.exited).toBe(0);
      expect(walSize(journal)).toBe(0);
      expect(endedTurns(journal, id)).toBe(20);
    } finally {
      other.close();
    }
  }, 30_000);

  test("a reader that holds the log at exit does not fail the exit, and loses nothing", async () => {
    const box = sandbox("scripted/plain");
    const journal = join(box.home, "journal.db");
    const { agent, id } = await agentWithSession(box.env, box.workspace);
    await backToBack(agent, id, 20, journal);
    // A read under way in another process pins the log: it cannot be truncated while it lasts.
    const other = new Database(journal, { readonly: true });
    try {
      const reading = other.query<{ seq: number }, []>("SELECT seq FROM facts").iterate();
      reading.next();
      agent.endInput();
      expect(await agent.exited).toBe(0);
      reading.return?.();
    } finally {
      other.close();
    }
    expect(endedTurns(journal, id)).toBe(20);
  }, 30_000);
});
