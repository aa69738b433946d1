/**
 * A controller's prompts queued in the session's inbox are its own: each names the controller and
 * its attachment (journal/session-attachments.ts), and the writer runs one only while that
 * controller is there. A controller killed or detached has the prompts it queued withdrawn; on
 * another machine, its attachment row expires unless refreshed. An inbox holds a bounded number
 * of waiting requests: a prompt past it is refused, saying so.
 */
import { SQL } from "bun";
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { openJournal } from "../../src/core/config/open-journal.ts";
import { journalFile } from "../../src/journal/paths.ts";
import { MAX_QUEUED_PROMPTS } from "../../src/core/session/turn-line.ts";
import { INBOX_LIMIT, type InboxRequest } from "../../src/journal/session-inbox.ts";
import { readAll, type JournalStore } from "../../src/journal/store.ts";
import { connectProcess, errorOf, newSession, prompt, type Connected } from "../support/acp-session.ts";
import { attach, detach, withClients } from "../support/attach.ts";
import { freshDatabase } from "../support/postgres-server.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";

/** The prompts the session recorded, by their text. */
async function promptsRun(store: JournalStore, sessionId: string): Promise<string[]> {
  return (await readAll(store, sessionId)).flatMap((r) =>
    r.fact.kind === "prompt_received" ? [r.fact.blocks.map((b) => (b.type === "text" ? b.text : "")).join("")] : [],
  );
}

/** Waits (polling) until `done` holds of the session's recorded prompts. */
async function untilPrompts(store: JournalStore, sessionId: string, done: (texts: string[]) => boolean): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (done(await promptsRun(store, sessionId))) return;
    await Bun.sleep(50);
  }
  throw new Error(`session ${sessionId} never recorded the prompts waited for`);
}

/** Whether every request in the session's inbox has been taken (run or withdrawn). */
async function inboxTaken(box: Sandbox): Promise<boolean> {
  const url = box.env.VERBATIM_JOURNAL;
  if (url) {
    const sql = new SQL(url, { max: 1 });
    try {
      return (
        ((await sql`SELECT count(*)::int AS n FROM verbatim.session_inbox WHERE NOT taken`) as { n: number }[])[0]
          ?.n === 0
      );
    } finally {
      await sql.close();
    }
  }
  const db = new Database(journalFile(box.home), { readonly: true });
  try {
    return db.query<{ n: number }, []>("SELECT COUNT(*) AS n FROM session_inbox WHERE taken = 0").get()?.n === 0;
  } finally {
    db.close();
  }
}

/**
 * Sends `texts` from the controller at once (their answers are not awaited), once the first is
 * running (recorded), runs `leave`; then, once the writer has taken every request, its own client
 * prompts "after", which runs after anything the writer ran of the controller's. Returns the
 * prompts the session recorded.
 */
async function queueThenLeave(
  box: Sandbox,
  writer: Connected,
  controller: Connected,
  texts: string[],
  leave: (sessionId: string) => Promise<void>,
): Promise<string[]> {
  const { sessionId } = await newSession(writer.ctx, box.workspace);
  await attach(controller.ctx, { sessionId, role: "controller" });
  const store = openJournal(box.env);
  try {
    for (const text of texts) prompt(controller.ctx, sessionId, text).catch(() => undefined);
    await untilPrompts(store, sessionId, (run) => run.includes(texts[0]!));
    await leave(sessionId);
    for (let i = 0; i < 600 && !(await inboxTaken(box)); i++) await Bun.sleep(50);
    expect(await inboxTaken(box)).toBe(true);
    await prompt(writer.ctx, sessionId, "after");
    return await promptsRun(store, sessionId);
  } finally {
    await store.close();
  }
}

describe("a controller's queued prompts", () => {
  test("are withdrawn when its process is killed: the writer runs none it had not started", async () => {
    const box = sandbox("scripted/slow");
    await withClients(box, async (writer, controller) => {
      const texts = ["one", "two", "three", "four", "five"];
      const run = await queueThenLeave(box, writer, controller, texts, async () => {
        controller.agent!.kill(9);
        await controller.agent!.exited;
      });
      expect(run).toEqual(["one", "after"]);
      expect(writer.agent!.stderr()).toContain("its controller's process has ended");
    });
  }, 120_000);

  test("are withdrawn when it detaches", async () => {
    const box = sandbox("scripted/slow");
    await withClients(box, async (writer, controller) => {
      const run = await queueThenLeave(box, writer, controller, ["one", "two", "three"], (sessionId) =>
        detach(controller.ctx, sessionId).then(() => undefined),
      );
      expect(run).toEqual(["one", "after"]);
      expect(writer.agent!.stderr()).toContain("its controller detached");
    });
  }, 120_000);

  test("from another machine run while its attachment is refreshed, and are withdrawn once it has expired (PostgreSQL)", async () => {
    const box = sandbox("scripted/plain");
    box.env.VERBATIM_JOURNAL = await freshDatabase();
    const writer = await connectProcess(box.env);
    const store = openJournal(box.env);
    try {
      const { sessionId } = await newSession(writer.ctx, box.workspace);
      const by = { pid: writer.agent!.pid, host: "another-machine", startTime: "1" };
      await store.keepAttachment(sessionId, { attachmentId: "att_fresh", by });
      await store.keepAttachment(sessionId, { attachmentId: "att_gone", by });
      const sql = new SQL(box.env.VERBATIM_JOURNAL, { max: 1 });
      try {
        await sql`UPDATE verbatim.session_attachments SET refreshed_at = now() - interval '1 hour' WHERE attachment_id = 'att_gone'`;
      } finally {
        await sql.close();
      }
      const request = (requestId: string, attachmentId: string, text: string): InboxRequest => ({
        kind: "prompt",
        requestId,
        blocks: [{ type: "text", text }],
        by,
        attachmentId,
        at: new Date().toISOString(),
      });
      await store.sendToWriter(sessionId, request("req_gone", "att_gone", "from a controller gone"));
      await store.sendToWriter(sessionId, request("req_fresh", "att_fresh", "from a controller there"));
      await untilPrompts(store, sessionId, (run) => run.length > 0);
      for (let i = 0; i < 600 && !(await inboxTaken(box)); i++) await Bun.sleep(50);
      // The prompt run has ended before the writer's own client prompts.
      const ended = async () => (await readAll(store, sessionId)).some((r) => r.fact.kind === "turn_ended");
      for (let i = 0; i < 600 && !(await ended()); i++) await Bun.sleep(50);
      await prompt(writer.ctx, sessionId, "after");
      expect(await promptsRun(store, sessionId)).toEqual(["from a controller there", "after"]);
    } finally {
      await store.close();
      await writer.close();
    }
  }, 120_000);
});

describe("a session's inbox", () => {
  test(`holds ${INBOX_LIMIT} waiting requests: a controller's prompt past them is refused, saying so`, async () => {
    const box = sandbox("scripted/slow");
    await withClients(box, async (writer, controller) => {
      const { sessionId } = await newSession(writer.ctx, box.workspace);
      await attach(controller.ctx, { sessionId, role: "controller" });
      const store = openJournal(box.env);
      try {
        prompt(writer.ctx, sessionId, "a slow turn").catch(() => undefined);
        await untilPrompts(store, sessionId, (run) => run.length === 1);
        // The session's line of prompts full behind the slow turn: the writer takes no prompt from
        // the inbox (it would wait in that line), so the inbox's requests stay there.
        for (let i = 0; i < MAX_QUEUED_PROMPTS; i++)
          prompt(writer.ctx, sessionId, `queued ${i}`).catch(() => undefined);
        const lineFull = await errorOf(prompt(writer.ctx, sessionId, "one more in line"));
        expect(lineFull.data).toMatchObject({ reason: "queue_full" });
        const by = { pid: 1, host: "another-machine" };
        for (let i = 0; i < INBOX_LIMIT; i++)
          await store.sendToWriter(sessionId, {
            kind: "prompt",
            requestId: `req_${i}`,
            blocks: [{ type: "text", text: `waiting ${i}` }],
            by,
            attachmentId: "att_nobody",
            at: new Date().toISOString(),
          });
        const refused = await errorOf(prompt(controller.ctx, sessionId, "one too many"));
        expect(refused.code).toBe(-32600);
        expect(refused.message).toContain(`has ${INBOX_LIMIT} requests waiting for its writer already`);
        expect(refused.data).toMatchObject({ reason: "inbox_full", sessionId, limit: INBOX_LIMIT });
      } finally {
        await store.close();
      }
    });
  }, 60_000);
});
