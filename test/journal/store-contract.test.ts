/**
 * One contract, both stores: what the engine relies on from a journal, whether SQLite or PostgreSQL
 * holds it, role by role (src/journal/store.ts; the replay cache's in replay-cache-contract.test.ts,
 * the watcher's in journal-watch.test.ts).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import type { Fact, FactOf } from "../../src/journal/facts/index.ts";
import { openJournal } from "../../src/core/config/open-journal.ts";
import { withChecksum } from "../../src/journal/replay-cache.ts";
import { readAll, type JournalStore } from "../../src/journal/store.ts";
import { INBOX_LIMIT } from "../../src/journal/session-inbox.ts";
import { chunk, journalError, startFact } from "../support/journal.ts";
import { storeKinds, storeUnderTest, type StoreUnderTest } from "../support/stores.ts";

const now = () => new Date().toISOString();
const at = (ms: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, 0, ms)).toISOString();

async function create(
  store: JournalStore,
  sessionId = "ses_test",
  cwd = "/work",
  parentSessionId?: string,
): Promise<string> {
  const when = now();
  await store.create(
    {
      sessionId,
      cwd,
      additionalDirectories: ["/extra"],
      createdAt: when,
      updatedAt: when,
      ...(parentSessionId ? { parentSessionId } : {}),
    },
    startFact(cwd),
  );
  return sessionId;
}

const image = (data: string): Fact => ({
  kind: "prompt_received",
  turnId: "turn_1",
  messageId: "msg_p",
  blocks: [
    { type: "text", text: "look" },
    { type: "image", mimeType: "image/png", data },
  ],
});

for (const kind of storeKinds) {
  describe(`the ${kind} store`, () => {
    const opened: StoreUnderTest[] = [];
    const open = async () => {
      const s = await storeUnderTest(kind);
      opened.push(s);
      return s;
    };
    afterAll(async () => {
      for (const s of opened) await s.close();
    });

    describe("facts and reads (FactStore)", () => {
      test("reads back every appended fact in order, in pages, validated", async () => {
        const { store } = await open();
        const id = await create(store);
        const facts = Array.from({ length: 1200 }, (_, i) => ({ fact: chunk(`t${i}`), at: at(i) }));
        for (let i = 0; i < facts.length; i += 100) await store.appendMany(id, 2 + i, facts.slice(i, i + 100));
        const pages: number[] = [];
        let seq = 0;
        for await (const page of store.readPages(id)) {
          pages.push(page.length);
          for (const record of page) expect(record.seq).toBe(++seq);
        }
        expect(seq).toBe(1201);
        expect(pages.length).toBeGreaterThan(1);
        expect((await readAll(store, id, 1200)).map((r) => r.fact)).toEqual([chunk("t1198"), chunk("t1199")]);
      });

      test("refuses an append at a sequence number that is not the next one, writing nothing", async () => {
        const { store } = await open();
        const id = await create(store);
        expect((await journalError(() => store.append(id, 3, chunk("skips 2"), now()))).code).toBe("stale_write");
        await store.append(id, 2, chunk("ok"), now());
        expect((await journalError(() => store.append(id, 2, chunk("again at 2"), now()))).code).toBe("stale_write");
        expect((await readAll(store, id)).length).toBe(2);
      });

      test("appends several facts all or none", async () => {
        const { store } = await open();
        const id = await create(store);
        expect(
          (
            await journalError(() =>
              store.appendMany(id, 3, [
                { fact: chunk("a"), at: at(1) },
                { fact: chunk("b"), at: at(2) },
              ]),
            )
          ).code,
        ).toBe("stale_write");
        const records = await store.appendMany(id, 2, [
          { fact: { kind: "title_set", title: "A title" }, at: at(5) },
          { fact: chunk("a"), at: at(9) },
        ]);
        expect(records.map((r) => r.seq)).toEqual([2, 3]);
        expect(await store.info(id)).toMatchObject({
          title: "A title",
          updatedAt: at(9),
          additionalDirectories: ["/extra"],
        });
      });

      test("facts are append-only in the database itself", async () => {
        const { store, raw } = await open();
        const id = await create(store);
        await expect(raw(`UPDATE facts SET body = '{}' WHERE session_id = '${id}'`)).rejects.toThrow(/append-only/);
        await expect(raw(`DELETE FROM facts WHERE session_id = '${id}'`)).rejects.toThrow(/append-only/);
        await expect(
          raw(`INSERT INTO facts (session_id, seq, kind, v, at, body) VALUES ('${id}', 5, 'x', 1, 'x', '{}')`),
        ).rejects.toThrow(/out-of-sequence/);
        expect((await readAll(store, id)).length).toBe(1);
      });

      test("a payload is stored once per session by its content hash, and read back whole", async () => {
        const { store, raw } = await open();
        const id = await create(store);
        const data = "iVBORw0KGgo".repeat(2000);
        await store.append(id, 2, image(data), now());
        await store.append(id, 3, image(data), now());
        expect((await readAll(store, id)).slice(1).map((r) => r.fact)).toEqual([image(data), image(data)]);
        await expect(raw("UPDATE blobs SET data = 'x'")).rejects.toThrow(/append-only/);
      });

      test("names the number of a session's last record (0 for a session with none)", async () => {
        const { store } = await open();
        const id = await create(store);
        expect(await store.lastSeq(id)).toBe(1);
        await store.appendMany(id, 2, [
          { fact: chunk("a"), at: now() },
          { fact: chunk("b"), at: now() },
        ]);
        expect(await store.lastSeq(id)).toBe(3);
        expect(await store.lastSeq("ses_none")).toBe(0);
      });

      test("counts a session's records of some kinds, and lists the subagent sessions it started, oldest first", async () => {
        const { store } = await open();
        const id = await create(store, "ses_parent");
        await store.appendMany(id, 2, [
          { fact: image("aGk="), at: now() },
          { fact: chunk("answer"), at: now() },
          { fact: image("aGk="), at: now() },
        ]);
        expect(await store.countOf(id, ["prompt_received"])).toBe(2);
        expect(await store.countOf(id, ["prompt_received", "message_chunk"])).toBe(3);
        expect(await store.countOf("ses_none", ["prompt_received"])).toBe(0);
        // Within a run of records, both ends included.
        expect(await store.countOf(id, ["prompt_received"], { fromSeq: 3, toSeq: 4 })).toBe(1);
        expect(await store.countOf(id, ["prompt_received"], { fromSeq: 2, toSeq: 2 })).toBe(1);
        expect(await store.countOf(id, ["prompt_received"], { fromSeq: 3, toSeq: 3 })).toBe(0);
        await create(store, "ses_child_b", "/work", id);
        await Bun.sleep(2);
        await create(store, "ses_child_a", "/work", id);
        await create(store, "ses_other", "/work");
        expect((await store.children(id)).map((r) => [r.sessionId, r.parentSessionId])).toEqual([
          ["ses_child_b", id],
          ["ses_child_a", id],
        ]);
        expect(await store.children("ses_other")).toEqual([]);
      });

      /** An "always" answer's rule: an authority record. */
      const rule: Fact = {
        kind: "permission_rule_added",
        requestId: "req_1",
        toolCallId: "call_1",
        toolName: "Bash",
        decision: "allow",
      };

      test("reads a session's authority records up to a record, in order, and nothing else", async () => {
        const { store } = await open();
        const id = await create(store);
        const grant: Fact = {
          kind: "access_granted",
          requestId: "req_2",
          toolCallId: "call_2",
          directory: "/elsewhere",
        };
        await store.appendMany(id, 2, [
          { fact: chunk("answer"), at: now() },
          { fact: rule, at: now() },
          { fact: chunk("more"), at: now() },
          { fact: grant, at: now() },
        ]);
        const all = await store.authority(id, 5);
        expect(all.map((r) => [r.seq, r.fact.kind])).toEqual([
          [1, "session_started"],
          [3, "permission_rule_added"],
          [5, "access_granted"],
        ]);
        expect(all[1]!.fact).toEqual(rule);
        expect((await store.authority(id, 4)).map((r) => r.seq)).toEqual([1, 3]);
      });

      test("finds a session's last record of some kinds, the sparse ones too (its start, a rule, a rewind), or none", async () => {
        const { store } = await open();
        const id = await create(store);
        const rewind: Fact = { kind: "session_rewound", toSeq: 2, earlier: [] };
        await store.appendMany(id, 2, [
          { fact: chunk("answer"), at: now() },
          { fact: rewind, at: now() },
          { fact: chunk("more"), at: now() },
          { fact: rule, at: now() },
          { fact: chunk("last"), at: now() },
        ]);
        const last = async (kinds: Fact["kind"][]) => (await store.lastOf(id, kinds))?.seq;
        expect(await last(["session_started"])).toBe(1);
        expect(await last(["session_started", "permission_rule_added"])).toBe(5);
        expect(await last(["session_rewound"])).toBe(3);
        expect((await store.lastOf(id, ["session_rewound"]))?.fact).toEqual(rewind);
        expect(await last(["message_chunk"])).toBe(6);
        expect(await last(["message_chunk", "session_started"])).toBe(6);
        expect(await last(["access_granted"])).toBeUndefined();
        expect(await last(["turn_ended"])).toBeUndefined();
      });

      test("lists top-level sessions that received a prompt newest first, filtered by cwd, in pages", async () => {
        const { store } = await open();
        for (let i = 0; i < 5; i++) {
          await create(store, `ses_${i}`, i % 2 ? "/odd" : "/even");
          await store.append(`ses_${i}`, 2, image("aGk="), now());
          await Bun.sleep(2);
        }
        await create(store, "ses_child", "/odd", "ses_1");
        await store.append("ses_child", 2, image("aGk="), now());
        await create(store, "ses_promptless", "/odd");
        expect((await store.list({ limit: 10 })).map((r) => r.sessionId)).toEqual([
          "ses_4",
          "ses_3",
          "ses_2",
          "ses_1",
          "ses_0",
        ]);
        expect((await store.list({ limit: 10, cwd: "/odd" })).map((r) => r.sessionId)).toEqual(["ses_3", "ses_1"]);
        const first = await store.list({ limit: 2 });
        const last = first[first.length - 1]!;
        expect(
          (await store.list({ limit: 2, after: { updatedAt: last.updatedAt, sessionId: last.sessionId } })).map(
            (r) => r.sessionId,
          ),
        ).toEqual(["ses_2", "ses_1"]);
      });

      test("deleting a session removes it and its child sessions; the rest stay", async () => {
        const { store } = await open();
        const id = await create(store);
        await create(store, "ses_child", "/work", id);
        await create(store, "ses_other");
        expect(await store.delete(id)).toBe(true);
        expect(await store.info(id)).toBeUndefined();
        expect(await store.info("ses_child")).toBeUndefined();
        expect((await journalError(() => readAll(store, id))).code).toBe("not_found");
        expect((await readAll(store, "ses_other")).length).toBe(1);
        expect(await store.delete(id)).toBe(false);
      });

      test("idle sessions: the top-level ones whose last record is older than a time, oldest first", async () => {
        const { store } = await open();
        const old = (sessionId: string, when: string) =>
          store.importSession({ sessionId, cwd: "/w", additionalDirectories: [], createdAt: when, updatedAt: when }, [
            { fact: startFact("/w"), at: when },
          ]);
        await old("ses_2019", "2019-03-01T00:00:00.000Z");
        await old("ses_2018", "2018-03-01T00:00:00.000Z");
        await old("ses_2021", "2021-03-01T00:00:00.000Z");
        await create(store, "ses_now");
        await create(store, "ses_child_now", "/work", "ses_2018");
        const idle = await store.idleSince("2020-01-01T00:00:00.000Z");
        expect(idle.map((r) => r.sessionId)).toEqual(["ses_2018", "ses_2019"]);
        expect(idle[0]?.updatedAt).toBe("2018-03-01T00:00:00.000Z");
      });

      test("a session's size counts its facts, its blobs and its cache; deleting it takes them all, and its subagents'", async () => {
        const { store } = await open();
        const when = "2019-03-01T00:00:00.000Z";
        await store.importSession(
          { sessionId: "ses_big", cwd: "/w", additionalDirectories: [], createdAt: when, updatedAt: when },
          [
            { fact: startFact("/w"), at: when },
            { fact: image("B".repeat(40_000)), at: when },
          ],
        );
        await create(store, "ses_big_child", "/work", "ses_big");
        await create(store, "ses_kept");
        const withFacts = await store.sessionBytes("ses_big");
        expect(withFacts).toBeGreaterThan(40_000);
        await store.acquire("ses_big");
        const key = { version: 1, capabilities: "notices=0;compaction=0" };
        // Lines that do not compress (PostgreSQL packs them).
        const row = withChecksum({ ...key, fromSeq: 1, toSeq: 2, lines: `${randomBytes(4000).toString("base64")}\n` });
        await store.putReplayCache("ses_big", key, { rows: [row], parts: [] });
        expect(await store.sessionBytes("ses_big")).toBeGreaterThan(withFacts + 4000);
        expect(await store.journalBytes()).toBeGreaterThan(withFacts);
        const kept = await store.sessionBytes("ses_kept");

        expect(await store.delete("ses_big")).toBe(true);
        expect(await store.sessionBytes("ses_big")).toBe(0);
        expect(await store.readReplayCache("ses_big")).toEqual([]);
        expect(await store.info("ses_big_child")).toBeUndefined();
        expect(await store.sessionBytes("ses_big_child")).toBe(0);
        expect(await store.sessionBytes("ses_kept")).toBe(kept);
        expect(await store.idleSince("2020-01-01T00:00:00.000Z")).toEqual([]);
      });

      test("unended jobs: each job a session started and did not record ended, not those of the history a fork began with", async () => {
        const { store } = await open();
        const job = (jobId: string): FactOf<"job_started"> => ({
          kind: "job_started",
          jobId,
          toolCallId: `call_${jobId}`,
          command: `serve ${jobId}`,
          outputPath: `/tmp/${jobId}.output`,
          host: "box",
          pid: 4242,
          startTime: "77",
        });
        const id = await create(store, "ses_jobs");
        await store.append(id, 2, job("job_running"), now());
        await store.append(id, 3, job("job_done"), now());
        await store.append(
          id,
          4,
          { kind: "job_ended", jobId: "job_done", toolCallId: "call_job_done", by: "exit" },
          now(),
        );
        const when = now();
        await store.fork(
          {
            sessionId: "ses_jobs_fork",
            cwd: "/work",
            additionalDirectories: [],
            createdAt: when,
            updatedAt: when,
            forkOf: { sessionId: id, seq: 4 },
          },
          { kind: "session_forked", fromSessionId: id, fromSeq: 4 },
        );
        await store.acquire("ses_jobs_fork");
        await store.append("ses_jobs_fork", 6, job("job_of_fork"), now());
        expect(await store.unendedJobs()).toEqual([
          { sessionId: "ses_jobs", started: job("job_running") },
          { sessionId: "ses_jobs_fork", started: job("job_of_fork") },
        ]);
      });

      test("a fork copies the source's records and payloads, then its own record, and names its origin", async () => {
        const { store } = await open();
        const id = await create(store);
        const data = "iVBORw0KGgo".repeat(2000);
        await store.append(id, 2, image(data), now());
        const when = now();
        const forkOf = { sessionId: id, seq: 2 };
        await store.fork(
          { sessionId: "ses_fork", cwd: "/work", additionalDirectories: [], createdAt: when, updatedAt: when, forkOf },
          { kind: "session_forked", fromSessionId: id, fromSeq: 2 },
        );
        const copied = await readAll(store, "ses_fork");
        expect(copied.slice(0, 2)).toEqual(await readAll(store, id));
        expect(copied[2]?.fact).toEqual({ kind: "session_forked", fromSessionId: id, fromSeq: 2 });
        expect((await store.info("ses_fork"))?.forkOf).toEqual(forkOf);
        await store.delete(id);
        expect((await readAll(store, "ses_fork")).length).toBe(3);
      });

      test("an import writes a whole session with its times and payloads, and is listed by its last record", async () => {
        const { store } = await open();
        const row = {
          sessionId: "ses_imported",
          cwd: "/there",
          additionalDirectories: [],
          createdAt: at(0),
          updatedAt: at(0),
        };
        const records = [
          { fact: startFact("/there"), at: at(0) },
          { fact: image("B".repeat(40_000)), at: at(1) },
          { fact: { kind: "title_set", title: "brought over" } as Fact, at: at(2) },
        ];
        await store.importSession(row, records);
        expect(
          (await readAll(store, row.sessionId)).map(({ seq, at: when, fact }) => ({ seq, at: when, fact })),
        ).toEqual(records.map((r, i) => ({ seq: i + 1, ...r })));
        expect(await store.info(row.sessionId)).toMatchObject({
          cwd: "/there",
          title: "brought over",
          createdAt: at(0),
          updatedAt: at(2),
        });
        expect(await store.holder(row.sessionId)).toBeUndefined();
      });

      test("an import refuses a session id already in the journal, writing nothing", async () => {
        const { store } = await open();
        const id = await create(store);
        const row = { sessionId: id, cwd: "/there", additionalDirectories: [], createdAt: at(0), updatedAt: at(0) };
        expect(
          (
            await journalError(() =>
              store.importSession(row, [
                { fact: startFact("/there"), at: at(0) },
                { fact: chunk("x"), at: at(1) },
              ]),
            )
          ).code,
        ).toBe("exists");
        expect((await readAll(store, id)).length).toBe(1);
        expect((await store.info(id))?.cwd).toBe("/work");
      });

      test("a listing by repository finds the sessions whose start recorded that remote and inner path, leaving out a directory", async () => {
        const { store } = await open();
        const started = (id: string, cwd: string, remote: string, innerPath: string) =>
          store.importSession({ sessionId: id, cwd, additionalDirectories: [], createdAt: at(0), updatedAt: at(0) }, [
            {
              fact: { ...startFact(cwd), origin: { host: "ci", git: { remote, innerPath, branch: "main" } } } as Fact,
              at: at(0),
            },
            { fact: image("x"), at: at(Number(id.slice(-1))) },
          ]);
        await started("ses_a1", "/ci/app", "example.com/team/app", "");
        await started("ses_a2", "/me/app", "example.com/team/app", "");
        await started("ses_a3", "/ci/app/docs", "example.com/team/app", "docs");
        await started("ses_a4", "/ci/other", "example.com/team/other", "");
        await store.importSession(
          { sessionId: "ses_a5", cwd: "/old", additionalDirectories: [], createdAt: at(0), updatedAt: at(0) },
          [
            { fact: startFact("/old"), at: at(0) },
            { fact: image("x"), at: at(5) },
          ],
        );
        const found = await store.list({
          repository: { remote: "example.com/team/app", innerPath: "" },
          exceptCwd: "/me/app",
          limit: 10,
        });
        expect(found.map((r) => r.sessionId)).toEqual(["ses_a1"]);
        const all = await store.list({ repository: { remote: "example.com/team/app", innerPath: "" }, limit: 10 });
        expect(all.map((r) => r.sessionId)).toEqual(["ses_a2", "ses_a1"]);
      });

      test("an empty store has no sessions, and reading one is not_found", async () => {
        const { store } = await open();
        expect(await store.list({ limit: 10 })).toEqual([]);
        expect(await store.info("ses_nope")).toBeUndefined();
        expect((await journalError(() => readAll(store, "ses_nope"))).code).toBe("not_found");
      });
    });

    describe("claims, inbox and attachments (ControllerStore)", () => {
      test("an answer claim: the first of a question holds, from any store on the journal; later ones get it back", async () => {
        const under = await open();
        const id = await create(under.store);
        const other = openJournal(under.env);
        try {
          const claim = (optionId: string, pid: number) => ({
            requestId: "perm_1",
            answer: { kind: "permission" as const, outcome: { outcome: "selected" as const, optionId } },
            by: { pid },
            at: now(),
          });
          expect(await under.store.answerClaimOf(id, "perm_1")).toBeUndefined();
          const first = claim("allow", 1);
          expect(await other.claimAnswer(id, first)).toEqual(first);
          expect(await under.store.claimAnswer(id, claim("reject", 2))).toEqual(first);
          expect(await under.store.answerClaimOf(id, "perm_1")).toEqual(first);
          expect(await under.store.answerClaimOf(id, "perm_2")).toBeUndefined();
          await under.store.delete(id);
          await create(under.store, id);
          expect(await under.store.answerClaimOf(id, "perm_1")).toBeUndefined();
        } finally {
          await other.close();
        }
      });

      test("the inbox: requests put from any store are taken oldest first, each once, by kind", async () => {
        const under = await open();
        const id = await create(under.store);
        const other = openJournal(under.env);
        try {
          const by = { pid: 7 };
          const prompt = (requestId: string) => ({
            kind: "prompt" as const,
            requestId,
            blocks: [{ type: "text" as const, text: requestId }],
            by,
            at: now(),
          });
          const cancel = { kind: "cancel" as const, requestId: "req_c", by, at: now() };
          expect(await under.store.takeFromInbox(id, ["prompt", "cancel"])).toBeUndefined();
          await other.sendToWriter(id, prompt("req_1"));
          await other.sendToWriter(id, cancel);
          await other.sendToWriter(id, prompt("req_2"));
          expect(await under.store.takeFromInbox(id, ["cancel"])).toEqual(cancel);
          expect(await under.store.takeFromInbox(id, ["cancel"])).toBeUndefined();
          const [first, second] = await Promise.all([
            under.store.takeFromInbox(id, ["prompt"]),
            other.takeFromInbox(id, ["prompt"]),
          ]);
          expect([first?.requestId, second?.requestId].sort()).toEqual(["req_1", "req_2"]);
          expect(await under.store.takeFromInbox(id, ["prompt", "cancel"])).toBeUndefined();
          await other.sendToWriter(id, prompt("req_3"));
          await under.store.delete(id);
          await create(under.store, id);
          expect(await under.store.takeFromInbox(id, ["prompt"])).toBeUndefined();
        } finally {
          await other.close();
        }
      });

      test(`the inbox holds ${INBOX_LIMIT} waiting requests: one more is refused with inbox_full until one is taken`, async () => {
        const under = await open();
        const id = await create(under.store);
        const cancel = (requestId: string) => ({ kind: "cancel" as const, requestId, by: { pid: 7 }, at: now() });
        for (let i = 0; i < INBOX_LIMIT; i++) await under.store.sendToWriter(id, cancel(`req_${i}`));
        const refused = await journalError(() => under.store.sendToWriter(id, cancel("req_more")));
        expect(refused.code).toBe("inbox_full");
        expect(refused.details).toMatchObject({ sessionId: id, limit: INBOX_LIMIT });
        await under.store.takeFromInbox(id, ["cancel"]);
        await under.store.sendToWriter(id, cancel("req_more"));
      });

      test("an attachment lives once kept (from any store), until it is dropped; deleted with its session", async () => {
        const under = await open();
        const id = await create(under.store);
        const other = openJournal(under.env);
        try {
          const attachment = { attachmentId: "att_1", by: { pid: 7, host: "h", startTime: "1" } };
          expect(await under.store.liveAttachment(id, "att_1")).toBeUndefined();
          await other.keepAttachment(id, attachment);
          await other.keepAttachment(id, attachment);
          expect(await under.store.liveAttachment(id, "att_1")).toEqual(attachment);
          expect(await under.store.liveAttachment(id, "att_2")).toBeUndefined();
          await other.dropAttachment(id, "att_1");
          expect(await under.store.liveAttachment(id, "att_1")).toBeUndefined();
          await other.keepAttachment(id, attachment);
          await under.store.delete(id);
          await create(under.store, id);
          expect(await under.store.liveAttachment(id, "att_1")).toBeUndefined();
        } finally {
          await other.close();
        }
      });
    });

    describe("leases (LeaseStore)", () => {
      test("the lease: held by this process after create, given up by release, taken again by acquire", async () => {
        const { store } = await open();
        const id = await create(store);
        expect((await store.holder(id))?.pid).toBe(process.pid);
        await store.release(id);
        expect(await store.holder(id)).toBeUndefined();
        await store.acquire(id);
        await store.append(id, 2, chunk("again"), now());
        expect((await readAll(store, id)).length).toBe(2);
      });
    });
  });
}
