/**
 * Agent processes on different machines' homes (different VERBATIM_HOMEs), one journal on a
 * PostgreSQL server: every process lists and loads every session, one writes each at a time
 * (a second is refused, naming the holder's host), a killed writer is taken over, a kill -9
 * keeps the prefix property, and a connection lost mid-turn ends the turn visibly.
 */
import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, test } from "bun:test";
import { hostname } from "node:os";
import { spawnAgent } from "../../src/client/spawn-agent.ts";
import { ViewClient } from "../../src/client/view-client.ts";
import { PostgresJournal } from "../../src/journal/postgres-store.ts";
import { readAll } from "../../src/journal/store.ts";
import { fold } from "../../src/view/view-model.ts";
import { connectProcess, errorOf, load, newSession, prompt } from "../support/acp-session.ts";
import { runCli } from "../support/cli-process.ts";
import { freshDatabase, postgresServer } from "../support/postgres-server.ts";
import { prefixViolations } from "../support/view-prefix.ts";
import { sandbox } from "../support/workspace.ts";
import { texts } from "../parity/harness.ts";

/** Two homes (two machines' worth of VERBATIM_HOME), one server. */
async function twoHomes(model: string) {
  const url = await freshDatabase();
  const a = sandbox(model);
  const b = sandbox(model);
  b.env.VERBATIM_HOME = `${b.home}`;
  return { url, a, b, envA: { ...a.env, VERBATIM_JOURNAL: url }, envB: { ...b.env, VERBATIM_JOURNAL: url } };
}

async function journalOf(url: string, sessionId: string) {
  const store = new PostgresJournal(url);
  try {
    return await readAll(store, sessionId);
  } finally {
    await store.close();
  }
}

describe("one journal server, two homes", () => {
  test("both list and load every session; the second writer is refused naming the holder's host, and takes over after kill -9", async () => {
    const { url, a, envA, envB } = await twoHomes("scripted/plain");
    const first = await connectProcess(envA);
    const second = await connectProcess(envB);
    try {
      const { sessionId } = await newSession(first.ctx, a.workspace);
      await prompt(first.ctx, sessionId, "From the first");

      const listed = await runCli(["sessions", "--json"], envB);
      expect(listed.code).toBe(0);
      expect(listed.stdout).toContain(sessionId);
      await load(second.ctx, sessionId, a.workspace);
      expect(texts(second.client.view(sessionId), "user")).toEqual(["From the first"]);

      const refused = await errorOf(prompt(second.ctx, sessionId, "From the second"));
      expect(refused.code).toBe(-32600);
      expect(refused.message).toContain(`pid ${first.agent!.pid} on ${hostname()}`);
      expect(refused.data).toMatchObject({ reason: "busy", sessionId, pid: first.agent!.pid, host: hostname() });

      first.agent!.kill(9);
      await first.agent!.exited;
      expect((await prompt(second.ctx, sessionId, "Taken over")).stopReason).toBe("end_turn");
      const records = await journalOf(url, sessionId);
      expect(records.map((r) => r.seq)).toEqual(records.map((_, i) => i + 1));
      expect(records.flatMap((r) => (r.fact.kind === "prompt_received" ? [r.fact.blocks[0]] : []))).toEqual([
        { type: "text", text: "From the first" },
        { type: "text", text: "Taken over" },
      ]);
      const shown = await runCli(["show", sessionId], envA);
      expect(shown.stdout).toContain("Taken over");
      expect(shown.stdout + shown.stderr).not.toContain(new URL(url).password);
    } finally {
      await first.close();
      await second.close();
    }
  });

  test("every update received before a kill -9 mid-turn is in the replay (the prefix property)", async () => {
    const { envA, a } = await twoHomes("scripted/slow");
    const failures: string[] = [];
    for (const afterUpdates of [1, 3, 8, 20, 45]) {
      const agent = spawnAgent({ env: envA });
      const client = new ViewClient();
      const connection = client.app().connect(agent.stream);
      let sessionId = "";
      let count = 0;
      client.onUpdate = () => {
        if (++count === afterUpdates) agent.kill(9);
      };
      try {
        await connection.agent.request(acp.methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
        sessionId = (
          await connection.agent.request(acp.methods.agent.session.new, { cwd: a.workspace, mcpServers: [] })
        ).sessionId;
        await connection.agent.request(acp.methods.agent.session.prompt, {
          sessionId,
          prompt: [{ type: "text", text: "Everything" }],
        });
      } catch {
        // The kill cuts the connection.
      }
      agent.kill(9);
      await agent.exited;
      connection.close();
      const received = fold(client.notifications.filter((n) => n.sessionId === sessionId).map((n) => n.update));
      const fresh = await connectProcess(envA);
      try {
        const before = fresh.client.notifications.length;
        await load(fresh.ctx, sessionId, a.workspace);
        const replay = fold(fresh.client.notifications.slice(before).map((n) => n.update));
        for (const problem of prefixViolations(received, replay))
          failures.push(`after ${afterUpdates} updates: ${problem}`);
        // The killed writer's lease died with it: this process takes the session over.
        expect((await prompt(fresh.ctx, sessionId, "Go on")).stopReason).toBe("end_turn");
      } finally {
        await fresh.close();
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  test("a connection lost mid-turn ends the turn with a visible notice, nothing shown unrecorded; the next turn reconnects and a reload shows exactly what was shown", async () => {
    const { url, a, envA } = await twoHomes("scripted/slow");
    const agent = await connectProcess(envA);
    try {
      const { sessionId } = await newSession(agent.ctx, a.workspace);
      const { admin } = await postgresServer();
      const database = new URL(url).pathname.slice(1);
      let cutting: Promise<unknown> | undefined;
      agent.client.onUpdate = () => {
        if (cutting || agent.client.notifications.length < 5) return;
        // The server stops taking connections to the journal and ends the ones it has.
        cutting = admin
          .unsafe(`ALTER DATABASE ${database} ALLOW_CONNECTIONS false`)
          .then(
            () =>
              admin`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ${database} AND pid <> pg_backend_pid()`,
          );
      };
      const failed = await errorOf(prompt(agent.ctx, sessionId, "Everything"));
      agent.client.onUpdate = () => undefined;
      await cutting;
      await admin.unsafe(`ALTER DATABASE ${database} ALLOW_CONNECTIONS true`);
      expect(failed.code).toBe(-32603);
      expect(failed.data).toMatchObject({ reason: "unreachable", host: "127.0.0.1" });
      expect(failed.message).not.toContain(new URL(url).password);
      const shown = agent.client.view(sessionId);
      const notice = Object.values(shown.messages).find((m) => m.meta?.verbatim);
      expect(JSON.stringify(notice?.meta)).toContain("The journal cannot be reached: the turn stopped");
      // The notice is the last thing shown for the turn.
      expect(shown.timeline.at(-1)).toBe(`message:${notice?.id}`);
      expect(JSON.stringify(notice?.meta)).not.toContain(new URL(url).password);

      expect((await prompt(agent.ctx, sessionId, "Again")).stopReason).toBe("end_turn");
      const live = agent.client.view(sessionId);
      expect(texts(live, "user")).toEqual(["Everything", "Again"]);
      const reloaded = await connectProcess(envA);
      try {
        await load(reloaded.ctx, sessionId, a.workspace);
        expect(reloaded.client.view(sessionId)).toEqual(live);
      } finally {
        await reloaded.close();
      }
    } finally {
      await agent.close();
    }
  }, 60_000);
});
