/**
 * The journal's watcher (src/journal/journal-watch.ts), on both stores: what another process
 * commits to a session (its facts, the rows beside them) wakes the watchers of that session in
 * this one, so that they read then instead of asking the journal on timers. On PostgreSQL the
 * wake is the server's notification, which carries the appended position, and survives the
 * listening connection's cut.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import type { Database } from "bun:sqlite";
import { type JournalChange, Watchers } from "../../src/journal/journal-watch.ts";
import { SQLITE_BACKGROUND_WATCH_MS, SqliteWatch } from "../../src/journal/sqlite-watch.ts";
import type { JournalStore } from "../../src/journal/store.ts";
import { until } from "../support/acp-session.ts";
import { chunk, startFact } from "../support/journal.ts";
import { storeKinds, storeUnderTest, type StoreUnderTest } from "../support/stores.ts";
import { PG_CHANNEL } from "../../src/journal/postgres-watch.ts";

const by = { pid: 4242, host: "elsewhere" };
const now = () => new Date().toISOString();

async function create(store: JournalStore, sessionId: string): Promise<void> {
  const at = now();
  await store.create({ sessionId, cwd: "/work", additionalDirectories: [], createdAt: at, updatedAt: at }, startFact());
}

/** The changes `store` reports for `sessionId` from now on, and the unsubscribe. */
function changesOf(store: JournalStore, sessionId: string): { seen: JournalChange[]; stop: () => void } {
  const seen: JournalChange[] = [];
  const stop = store.watch(sessionId, (change) => seen.push(change));
  return { seen, stop };
}

for (const kind of storeKinds) {
  describe(`the ${kind} store's watcher`, () => {
    const opened: StoreUnderTest[] = [];
    const open = async () => {
      const s = await storeUnderTest(kind);
      opened.push(s);
      return s;
    };
    afterAll(async () => {
      for (const s of opened) await s.close();
    });
    // PostgreSQL's watcher tells everyone to read once its listen is acknowledged: the changes
    // looked for come after that.
    const listening = (seen: JournalChange[]) =>
      kind === "postgres" ? until(() => seen.length > 0, "the listen to be acknowledged") : Promise.resolve();

    test("wakes a watcher of the session when another process appends to it", async () => {
      const s = await open();
      const writer = s.another();
      await create(writer, "ses_w");
      const { seen, stop } = changesOf(s.store, "ses_w");
      await listening(seen);
      const before = seen.length;
      await writer.append("ses_w", 2, chunk("hello"), now());
      await until(() => seen.slice(before).some((c) => c.kind !== "rows"), "a change of the session's facts");
      stop();
    });

    test("wakes a watcher of the session when another process puts a claim, a request or an attachment", async () => {
      const s = await open();
      await create(s.store, "ses_r");
      const other = s.another();
      const { seen, stop } = changesOf(s.store, "ses_r");
      await listening(seen);
      const rowsSince = (n: number) => seen.slice(n).some((c) => c.kind !== "facts");
      let mark = seen.length;
      await other.keepAttachment("ses_r", { attachmentId: "att_1", by });
      await until(() => rowsSince(mark), "a change after the attachment");
      mark = seen.length;
      await other.sendToWriter("ses_r", { kind: "cancel", requestId: "req_1", by, at: now() });
      await until(() => rowsSince(mark), "a change after the request");
      mark = seen.length;
      await other.claimAnswer("ses_r", {
        requestId: "perm_1",
        answer: { kind: "permission", outcome: { outcome: "cancelled" } },
        by,
        at: now(),
      });
      await until(() => rowsSince(mark), "a change after the claim");
      stop();
    });

    test("says whether a controller is attached: from its attachment row's write to its deletion", async () => {
      const s = await open();
      await create(s.store, "ses_a");
      const controller = s.another();
      expect(await s.store.controllerAttached("ses_a")).toBe(false);
      await controller.keepAttachment("ses_a", { attachmentId: "att_1", by });
      expect(await s.store.controllerAttached("ses_a")).toBe(true);
      await controller.dropAttachment("ses_a", "att_1");
      expect(await s.store.controllerAttached("ses_a")).toBe(false);
    });

    if (kind === "postgres") {
      test("is told by the server's notification, which carries the position appended", async () => {
        const s = await open();
        const writer = s.another();
        await create(writer, "ses_n");
        const { seen, stop } = changesOf(s.store, "ses_n");
        await until(() => seen.length > 0, "the listen to be acknowledged (every watcher reads once)");
        await writer.appendMany("ses_n", 2, [
          { fact: chunk("a"), at: now() },
          { fact: chunk("b"), at: now() },
        ]);
        await until(() => seen.some((c) => c.kind === "facts" && c.position === 3), "the notification of record 3");
        stop();
      });

      test("after its listening connection is cut, tells every watcher to read again and listens again", async () => {
        const s = await open();
        const writer = s.another();
        await create(writer, "ses_c");
        const { seen, stop } = changesOf(s.store, "ses_c");
        await until(() => seen.length > 0, "the listen to be acknowledged");
        const url = s.env.VERBATIM_JOURNAL as string;
        const admin = new SQL({ url, max: 1 });
        try {
          const cut = await admin`
            SELECT pg_terminate_backend(pid) AS cut FROM pg_stat_activity
            WHERE datname = current_database() AND query ILIKE ${`%LISTEN%${PG_CHANNEL}%`} AND pid <> pg_backend_pid()`;
          expect(cut.length).toBeGreaterThan(0);
        } finally {
          await admin.close();
        }
        const mark = seen.length;
        await until(() => seen.slice(mark).some((c) => c.kind === "any"), "a read-again after the reconnect");
        await writer.append("ses_c", 2, chunk("after"), now());
        await until(() => seen.some((c) => c.kind === "facts" && c.position === 2), "the notification after it");
        stop();
      });
    }
  });
}

describe("the watcher's ticks", () => {
  test("run at the background period while only background watches are there, at the foreground one while another is", async () => {
    let ticks = 0;
    const watchers = new Watchers({ start() {}, tick: () => ticks++, stop() {}, tickMs: 10, backgroundTickMs: 200 });
    const stopInbox = watchers.watch("ses_idle", () => {}, { background: true });
    await Bun.sleep(500);
    expect(ticks).toBeLessThanOrEqual(3);
    const stopFollower = watchers.watch("ses_idle", () => {});
    ticks = 0;
    await Bun.sleep(500);
    expect(ticks).toBeGreaterThanOrEqual(10);
    stopFollower();
    ticks = 0;
    await Bun.sleep(500);
    expect(ticks).toBeLessThanOrEqual(3);
    stopInbox();
    ticks = 0;
    await Bun.sleep(300);
    expect(ticks).toBe(0);
  });

  test("an open session idle in its writer's process reads SQLite's change counter a few times a second, not every 15 ms", async () => {
    let reads = 0;
    const counted = () => {
      reads += 1;
      return { data_version: 1 };
    };
    const db = { query: () => ({ get: counted }) } as unknown as Database;
    const watch = new SqliteWatch(() => db);
    const stop = watch.watch("ses_idle", () => {}, { background: true });
    reads = 0;
    await Bun.sleep(1000);
    stop();
    watch.close();
    // 1000 / SQLITE_BACKGROUND_WATCH_MS: 10 (66 at the foreground period).
    expect(reads).toBeLessThanOrEqual(1000 / SQLITE_BACKGROUND_WATCH_MS + 2);
    expect(reads).toBeGreaterThan(0);
  });
});
