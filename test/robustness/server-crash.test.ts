/**
 * The journal's PostgreSQL server crashes (`pg_ctl stop -m immediate`) and comes back. With the
 * default durability an append commits without waiting for the server's WAL flush, so the crash
 * loses the appends it had not written yet: the journal is a clean prefix of what was shown, and
 * the agent that wrote them goes on from what was committed (docs/deployment.md), its next prompt
 * running as usual. The lease still fences a real second writer.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { StoredFact } from "../../src/journal/facts/index.ts";
import { PostgresJournal } from "../../src/journal/postgres-store.ts";
import { readAll } from "../../src/journal/store.ts";
import { connectProcess, errorOf, load, newSession, prompt } from "../support/acp-session.ts";
import { startPostgres, type OwnPostgresServer } from "../support/postgres-server.ts";
import { prefixViolations } from "../support/view-prefix.ts";
import { sandbox } from "../support/workspace.ts";
import { texts } from "../parity/harness.ts";

let server: OwnPostgresServer;

beforeAll(async () => {
  // The server's own commits wait for their flush (as a deployed server's do); the WAL writer
  // flushes asynchronous commits only every 10 s, so a crash loses those made just before it.
  server = await startPostgres({ durable: false, settings: { synchronous_commit: "on", wal_writer_delay: "10s" } });
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

async function database() {
  const name = `t_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  await server.admin.unsafe(`CREATE DATABASE ${name}`);
  return server.url(name);
}

async function journalOf(url: string, sessionId: string): Promise<StoredFact[]> {
  const store = new PostgresJournal(url);
  try {
    return await readAll(store, sessionId);
  } finally {
    await store.close();
  }
}

/** Makes everything committed so far durable (a checkpoint flushes the WAL). */
const flushed = () => server.admin`CHECKPOINT`;

/** The server crashes and starts again; its WAL is replayed up to what it had written. */
async function crashAndRestart() {
  await server.crash();
  await server.restart();
}

const prompts = (records: StoredFact[]) =>
  records.flatMap((r) =>
    r.fact.kind === "prompt_received" && r.fact.blocks[0]?.type === "text" ? [r.fact.blocks[0].text] : [],
  );

const inSequence = (records: StoredFact[]) => records.map((r) => r.seq);

describe("the journal's server crashes", () => {
  test("mid-turn: the turn stops, the journal is a prefix of what was shown, and the next prompt of the same agent goes on from what was committed", async () => {
    const url = await database();
    const { env, workspace } = sandbox("scripted/slow");
    const journalEnv = { ...env, VERBATIM_JOURNAL: url };
    const agent = await connectProcess(journalEnv);
    try {
      const { sessionId } = await newSession(agent.ctx, workspace);
      expect((await prompt(agent.ctx, sessionId, "First")).stopReason).toBe("end_turn");
      await flushed();

      // The prompt is recorded before it is echoed: made durable then, so the crash cuts the turn
      // short; the server crashes a few updates after that, losing what it had not written.
      const before = agent.client.notifications.length;
      let durableAt: number | undefined;
      let making = false;
      let crashing: Promise<void> | undefined;
      agent.client.onUpdate = () => {
        const seen = agent.client.notifications.length - before;
        if (!making) {
          making = true;
          void flushed().then(() => {
            durableAt = agent.client.notifications.length - before;
          });
        }
        if (!crashing && durableAt !== undefined && seen >= durableAt + 5) crashing = server.crash();
      };
      const failed = await errorOf(prompt(agent.ctx, sessionId, "Second"));
      agent.client.onUpdate = () => undefined;
      expect(failed.data).toMatchObject({ reason: "unreachable" });
      await crashing;
      const shown = agent.client.view(sessionId);
      await server.restart();

      // The crash lost what the server had not written: the journal holds a prefix of what was shown.
      const afterCrash = await journalOf(url, sessionId);
      expect(inSequence(afterCrash)).toEqual(afterCrash.map((_, i) => i + 1));
      const reader = await connectProcess(journalEnv);
      try {
        await load(reader.ctx, sessionId, workspace);
        const replayed = reader.client.view(sessionId);
        expect(prefixViolations(replayed, shown)).toEqual([]);
        expect(replayed).not.toEqual(shown);
      } finally {
        await reader.close();
      }

      expect((await prompt(agent.ctx, sessionId, "Third")).stopReason).toBe("end_turn");
      const records = await journalOf(url, sessionId);
      expect(inSequence(records)).toEqual(records.map((_, i) => i + 1));
      expect(records.slice(0, afterCrash.length)).toEqual(afterCrash);
      expect(prompts(records)).toEqual(prompts(afterCrash).concat("Third"));
      // The turn the crash cut short is closed as after a crash, before the next one.
      const cut = afterCrash.findLast((r) => r.fact.kind === "prompt_received");
      expect(prompts(cut ? [cut] : [])).toEqual(["Second"]);
      const recovered = records.find((r) => r.fact.kind === "session_recovered");
      expect(recovered?.seq).toBeGreaterThan(afterCrash.length);
      expect(recovered?.fact).toMatchObject({
        interruptedTurnId: cut?.fact.kind === "prompt_received" ? cut.fact.turnId : "",
      });
      expect(texts(agent.client.view(sessionId), "user")).toEqual(["First", "Second", "Third"]);
    } finally {
      await agent.close();
    }
  }, 90_000);

  test("between turns: the next prompt of the same agent goes on from what was committed, and a second writer is still refused", async () => {
    const url = await database();
    const { env, workspace } = sandbox("scripted/plain");
    // No replay cache: its rows commit with the server's flush, which would make the turn durable.
    const journalEnv = { ...env, VERBATIM_JOURNAL: url, VERBATIM_REPLAY_CACHE: "off" };
    const agent = await connectProcess(journalEnv);
    const second = await connectProcess(journalEnv);
    try {
      const { sessionId } = await newSession(agent.ctx, workspace);
      expect((await prompt(agent.ctx, sessionId, "First")).stopReason).toBe("end_turn");
      await flushed();
      expect((await prompt(agent.ctx, sessionId, "Second")).stopReason).toBe("end_turn");
      const acknowledged = await journalOf(url, sessionId);
      await crashAndRestart();

      // The crash lost the appends the server had acknowledged but not written: a prefix remains.
      const afterCrash = await journalOf(url, sessionId);
      expect(afterCrash.length).toBeLessThan(acknowledged.length);
      expect(acknowledged.slice(0, afterCrash.length)).toEqual(afterCrash);

      expect((await prompt(agent.ctx, sessionId, "Third")).stopReason).toBe("end_turn");
      const records = await journalOf(url, sessionId);
      expect(inSequence(records)).toEqual(records.map((_, i) => i + 1));
      expect(records.slice(0, afterCrash.length)).toEqual(afterCrash);
      expect(prompts(records)).toEqual(prompts(afterCrash).concat("Third"));

      // The agent still holds the session: another process loads it, and may not write it.
      await load(second.ctx, sessionId, workspace);
      expect(texts(second.client.view(sessionId), "user")).toEqual(prompts(records));
      const refused = await errorOf(prompt(second.ctx, sessionId, "From the second"));
      expect(refused.data).toMatchObject({ reason: "busy", sessionId, pid: agent.agent!.pid });
      expect(await journalOf(url, sessionId)).toEqual(records);
    } finally {
      await agent.close();
      await second.close();
    }
  }, 90_000);
});
