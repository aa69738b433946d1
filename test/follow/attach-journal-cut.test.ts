/**
 * A follower whose PostgreSQL server goes away (a crash, its connections cut) and comes back: it
 * reads the journal again from the last record it sent, so it misses nothing and repeats nothing
 * of what the writer records once the server is back. The crash may take the journal's last
 * appends with it (the store commits asynchronously by default, docs/deployment.md): the writer
 * then goes on from what the journal holds, and so does the follower.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { newSession, prompt } from "../support/acp-session.ts";
import { attach, expectSameView, withClients } from "../support/attach.ts";
import { startPostgres, type OwnPostgresServer } from "../support/postgres-server.ts";
import { sandbox } from "../support/workspace.ts";

let server: OwnPostgresServer;

beforeAll(async () => {
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
    // Long enough for the follower's listen to find the server gone (it reconnects once it is back,
    // and then checks the last record it has: the crash may have lost it).
    await Bun.sleep(500);
    await server.restart();
    await prompt(writer.ctx, sessionId, "and read the missing file");
    await expectSameView(writer, follower, sessionId);
    expect(follower.client.view(sessionId).problems).toEqual([]);
  });
}, 90_000);
