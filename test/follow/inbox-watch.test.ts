/**
 * The writer watches its session's inbox only while a controller is attached
 * (src/core/session/inbox-server.ts): with none, a commit to the session makes it look for an
 * attachment row, never read the inbox; once a controller's row is written, the requests waiting
 * are taken. The store is counted around (a seam), the requests come from another connection to
 * the journal, as another process's.
 */
import { afterAll, expect, test } from "bun:test";
import { serveInbox, type InboxSession } from "../../src/core/session/inbox-server.ts";
import type { JournalStore } from "../../src/journal/store.ts";
import { until } from "../support/acp-session.ts";
import { createSession, tempJournal } from "../support/journal.ts";
import { SqliteJournal } from "../../src/journal/sqlite-store.ts";

const by = { pid: 4242, host: "elsewhere" };

/** The store, with how many times the inbox was read and a controller looked for. */
function counted(store: JournalStore) {
  const calls = { takeFromInbox: 0, controllerAttached: 0 };
  const seam = new Proxy(store, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        if (name === "takeFromInbox" || name === "controllerAttached") calls[name]++;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { seam, calls };
}

const { journal, path } = tempJournal();
const controller = new SqliteJournal(path);
const stop = new AbortController();
afterAll(async () => {
  stop.abort();
  await controller.close();
  await journal.close();
});

test("the inbox is not read while no controller is attached, and is read once one attaches", async () => {
  const sessionId = createSession(journal, "ses_inbox");
  await journal.acquire(sessionId);
  let cancels = 0;
  const session: InboxSession = {
    sessionId,
    leased: true,
    acceptsPrompt: true,
    prompt: () => Promise.reject(new Error("no prompt is sent in this test")),
    cancel: () => cancels++,
  };
  const { seam, calls } = counted(journal);
  void serveInbox(seam, session, stop.signal);
  await until(() => calls.controllerAttached === 1, "the first look for a controller");
  // A request put from another connection, with no attachment row: a commit the writer is told of.
  await controller.sendToWriter(sessionId, { kind: "cancel", requestId: "req_1", by, at: new Date().toISOString() });
  await until(() => calls.controllerAttached >= 2, "the look for a controller after the commit");
  expect(calls.takeFromInbox).toBe(0);
  expect(cancels).toBe(0);

  await controller.keepAttachment(sessionId, { attachmentId: "att_1", by });
  await until(() => cancels === 1, "the waiting cancel to be taken once a controller is attached");
  expect(calls.takeFromInbox).toBeGreaterThan(0);
});
