/**
 * A follower whose PostgreSQL server goes away (a crash, its connections cut) and comes back: it
 * reads the journal again from the last record it sent, so it misses nothing and repeats nothing
 * of what the writer records once the server is back.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { newSession, prompt } from "../support/acp-session.ts";
import { attach, expectSameView, withClients } from "../support/attach.ts";
import { startPostgres, type OwnPostgresServer } from "../support/postgres-server.ts";
import { sandbox } from "../support/workspace.ts";

let server: OwnPostgresServer;

beforeAll(async () => {
  // Durable: what was committed before the crash is still there after it (only the connections go).
  server = await startPostgres({ durable: true });
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

test("a follower goes on across its journal server's crash and restart, missing and repeating nothing", async () => {
  const name = `t_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  await server.admin.unsafe(`CREATE DATABASE ${name}`);
  const box = sandbox("scripted/demo");
  box.env.VERBATIM_JOURNAL = server.url(name);
  await withClients(box, async (writer, follower) => {
    const { sessionId } = await newSession(writer.ctx, box.workspace);
    await attach(follower.ctx, { sessionId });
    await prompt(writer.ctx, sessionId, "give me an overview");
    await expectSameView(writer, follower, sessionId);
    await server.crash();
    // Long enough for the follower to find the server gone (it looks every 15 ms).
    await Bun.sleep(500);
    await server.restart();
    await prompt(writer.ctx, sessionId, "and read the missing file");
    await expectSameView(writer, follower, sessionId);
    expect(follower.client.view(sessionId).problems).toEqual([]);
  });
}, 90_000);
