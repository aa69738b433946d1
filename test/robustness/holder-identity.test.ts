/**
 * "Is this holder me?" on a shared PostgreSQL journal: agents in containers share small pids, so
 * a lease held on another machine under this agent's own pid is another process's. The agent
 * compares host, pid and start time (journal/process-identity.ts), never the pid alone: a session
 * that machine is writing keeps its open calls open on load, and is not forked mid-turn.
 */
import { SQL } from "bun";
import { describe, expect, test } from "bun:test";
import type { Fact } from "../../src/journal/facts/index.ts";
import { PostgresJournal } from "../../src/journal/postgres-store.ts";
import { interruptedOf } from "../support/cards.ts";
import { connectProcess, errorOf, fork, load } from "../support/acp-session.ts";
import { startFact } from "../support/journal.ts";
import { freshDatabase } from "../support/postgres-server.ts";
import { sandbox } from "../support/workspace.ts";

const SESSION = "ses_holder_identity";
const CALL = "call_left_running";

/** A session in the middle of a turn: a command announced and started, not ended. */
async function sessionMidTurn(store: PostgresJournal, cwd: string): Promise<void> {
  const at = () => new Date().toISOString();
  await store.create(
    { sessionId: SESSION, cwd, additionalDirectories: [], createdAt: at(), updatedAt: at() },
    startFact(cwd),
  );
  const facts: Fact[] = [
    { kind: "prompt_received", turnId: "turn_1", messageId: "msg_1", blocks: [{ type: "text", text: "run it" }] },
    {
      kind: "tool_call_announced",
      toolCallId: CALL,
      name: "Bash",
      title: "sleep 60",
      toolKind: "execute",
      rawInput: { command: "sleep 60" },
      locations: [],
      content: [],
    },
    { kind: "tool_call_started", toolCallId: CALL },
  ];
  await store.appendMany(
    SESSION,
    2,
    facts.map((fact) => ({ fact, at: at() })),
  );
}

/** Renames the live lease holder: the same pid as `pid`, on another machine (its advisory lock stays held). */
async function holderElsewhereWithPid(url: string, pid: number): Promise<void> {
  const sql = new SQL(url, { max: 1 });
  try {
    await sql`UPDATE verbatim.leases SET host = 'another-machine', pid = ${pid}, start_time = '4242' WHERE session_id = ${SESSION}`;
  } finally {
    await sql.close();
  }
}

describe("a lease another machine holds under this agent's pid", () => {
  test("is another process's: its open calls are not marked interrupted, and its running turn is not forked", async () => {
    const url = await freshDatabase();
    const box = sandbox("scripted/plain");
    const writer = new PostgresJournal(url);
    const agent = await connectProcess({ ...box.env, VERBATIM_JOURNAL: url });
    try {
      await sessionMidTurn(writer, box.workspace);
      await holderElsewhereWithPid(url, agent.agent!.pid);

      await load(agent.ctx, SESSION, box.workspace);
      const card = agent.client.view(SESSION).toolCalls[CALL];
      expect(card?.status).toBe("in_progress");
      expect(interruptedOf(card!)).toBeUndefined();

      const refused = await errorOf(fork(agent.ctx, { sessionId: SESSION, cwd: box.workspace, mcpServers: [] }));
      expect(refused.message).toContain("has a turn running");
    } finally {
      await agent.close();
      await writer.close();
    }
  }, 60_000);
});
