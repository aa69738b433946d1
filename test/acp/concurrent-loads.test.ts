/**
 * Loads that overlap on one connection: an editor reopening several sessions at once. Each
 * replay reads its journal while the other's is still being read (a long replay waits for the
 * client between records), and each must still replay in full.
 */
import * as acp from "@agentclientprotocol/sdk";
import { expect, test } from "bun:test";
import { join } from "node:path";
import type { Fact } from "../../src/journal/facts/index.ts";
import { SqliteJournal } from "../../src/journal/sqlite-store.ts";
import { connectInProcess, errorOf, prompt } from "../support/acp-session.ts";
import { startFact } from "../support/journal.ts";
import { sandbox } from "../support/workspace.ts";

/** A session whose replay is long enough to wait for the client part of the way. */
function longSession(journal: SqliteJournal, sessionId: string, cwd: string, plans: number): void {
  const at = new Date().toISOString();
  journal.create({ sessionId, cwd, additionalDirectories: [], createdAt: at, updatedAt: at }, startFact(cwd));
  const facts = Array.from({ length: plans }, (_, i): { fact: Fact; at: string } => ({
    fact: { kind: "plan_updated", entries: [{ content: `step ${i}`, priority: "medium", status: "pending" }] },
    at,
  }));
  journal.appendMany(sessionId, 2, facts);
  journal.release(sessionId);
}

test("two sessions loaded at once on one connection each replay in full", async () => {
  const box = sandbox("scripted/plain");
  const journal = new SqliteJournal(join(box.home, "journal.db"));
  longSession(journal, "ses_first", box.workspace, 3000);
  longSession(journal, "ses_second", box.workspace, 2000);
  journal.close();
  const c = await connectInProcess(box.env);
  try {
    const load = (sessionId: string) =>
      c.ctx.request(acp.methods.agent.session.load, { sessionId, cwd: box.workspace, mcpServers: [] });
    await Promise.all([load("ses_first"), load("ses_second")]);
    const plans = (sessionId: string) =>
      c.client.notifications.filter((n) => n.sessionId === sessionId && n.update.sessionUpdate === "plan").length;
    expect(plans("ses_first")).toBe(3000);
    expect(plans("ses_second")).toBe(2000);
  } finally {
    await c.close();
  }
});

test("overlapping loads of one session leave one session that keeps answering and writing", async () => {
  const box = sandbox("scripted/plain");
  const journal = new SqliteJournal(join(box.home, "journal.db"));
  longSession(journal, "ses_twice", box.workspace, 3000);
  journal.close();
  const c = await connectInProcess(box.env);
  try {
    const load = () =>
      c.ctx.request(acp.methods.agent.session.load, { sessionId: "ses_twice", cwd: box.workspace, mcpServers: [] });
    const first = load();
    const second = load().then(
      () => "loaded",
      (error: { code: number; data?: { reason?: string } }) => `${error.code} ${error.data?.reason}`,
    );
    await first;
    // A prompt as soon as the first load has answered: it runs on the session that load opened.
    const during = prompt(c.ctx, "ses_twice", "hello");
    // The second load replays once the first is done; it is refused only while that turn runs.
    expect(["loaded", "-32600 turn_running"]).toContain(await second);
    expect((await during).stopReason).toBe("end_turn");
    expect((await prompt(c.ctx, "ses_twice", "and again")).stopReason).toBe("end_turn");
  } finally {
    await c.close();
  }
});

test("a session being loaded is not opened a second time by session/resume", async () => {
  const box = sandbox("scripted/plain");
  const journal = new SqliteJournal(join(box.home, "journal.db"));
  longSession(journal, "ses_resumed", box.workspace, 3000);
  journal.close();
  const c = await connectInProcess(box.env);
  try {
    const loading = c.ctx.request(acp.methods.agent.session.load, {
      sessionId: "ses_resumed",
      cwd: box.workspace,
      mcpServers: [],
    });
    const resumed = c.ctx.request(acp.methods.agent.session.resume, {
      sessionId: "ses_resumed",
      cwd: box.workspace,
      mcpServers: [],
    });
    await resumed;
    // Resumed while the load still replays: the prompt must run on the session both end with.
    const during = prompt(c.ctx, "ses_resumed", "hello");
    await loading;
    expect((await during).stopReason).toBe("end_turn");
    expect((await prompt(c.ctx, "ses_resumed", "again")).stopReason).toBe("end_turn");
    expect(
      await errorOf(
        c.ctx.request(acp.methods.agent.session.load, {
          sessionId: "ses_unknown_here",
          cwd: box.workspace,
          mcpServers: [],
        }),
      ),
    ).toMatchObject({ code: -32002 });
  } finally {
    await c.close();
  }
});
