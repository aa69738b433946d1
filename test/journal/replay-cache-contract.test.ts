/**
 * The replay cache through the store interface, on both stores: rows and state parts are stored
 * only by the lease's holder, read back by key in order, replaced (a part keeping its first
 * order), left out of nothing they should not be, and removed with the session. And the agent
 * keeps and uses the cache on each store: a load from it writes the bytes of a load from the facts.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { checksumHolds, partWithChecksum, withChecksum, type ReplayCacheKey } from "../../src/journal/replay-cache.ts";
import type { JournalStore } from "../../src/journal/store.ts";
import { PROJECTION_VERSION } from "../../src/replay/cache-key.ts";
import { connectProcess, newSession, prompt, until } from "../support/acp-session.ts";
import { journalError, startFact } from "../support/journal.ts";
import { loadBytes } from "../support/load-bytes.ts";
import { storeKinds, storeUnderTest, type StoreUnderTest } from "../support/stores.ts";
import { sandbox } from "../support/workspace.ts";

const KEY: ReplayCacheKey = { version: 1, capabilities: "notices=0;compaction=0" };
const OTHER: ReplayCacheKey = { version: 1, capabilities: "notices=1;compaction=0" };
/** The key the agent stores a client's cache under: this projection's, no session capabilities. */
const AGENT_KEY: ReplayCacheKey = { ...KEY, version: PROJECTION_VERSION };
const row = (fromSeq: number, toSeq: number, lines: string) => withChecksum({ ...KEY, fromSeq, toSeq, lines });
const part = (name: string, ord: number, body: string) => partWithChecksum(KEY, { part: name, ord, body });

async function create(store: JournalStore, sessionId = "ses_cache"): Promise<string> {
  const when = new Date().toISOString();
  await store.create(
    { sessionId, cwd: "/work", additionalDirectories: [], createdAt: when, updatedAt: when },
    startFact("/work"),
  );
  return sessionId;
}

for (const kind of storeKinds) {
  describe(`the replay cache on the ${kind} store`, () => {
    const opened: StoreUnderTest[] = [];
    const open = async () => {
      const s = await storeUnderTest(kind);
      opened.push(s);
      return s;
    };
    afterAll(async () => {
      for (const s of opened) await s.close();
    });

    test("a store never given a cache reads none", async () => {
      const { store } = await open();
      const id = await create(store);
      expect(store.keepsReplayCache).toBe(true);
      expect(await store.readReplayCache(id, KEY)).toEqual([]);
      expect(await store.readReplayState(id, KEY)).toEqual([]);
    });

    test("rows come back by key in record order, parts by their order", async () => {
      const { store } = await open();
      const id = await create(store);
      await store.putReplayCache(id, KEY, {
        rows: [row(4, 9, "b\n"), row(1, 3, "a\n")],
        parts: [part("head", 0, "{}"), part("card:y", 7, "Y"), part("card:x", 2, "X")],
      });
      expect((await store.readReplayCache(id, KEY)).map((r) => [r.fromSeq, r.toSeq, r.lines])).toEqual([
        [1, 3, "a\n"],
        [4, 9, "b\n"],
      ]);
      expect((await store.readReplayCache(id)).length).toBe(2);
      expect((await store.readReplayState(id, KEY)).map((p) => p.part)).toEqual(["head", "card:x", "card:y"]);
      expect(await store.readReplayCache(id, OTHER)).toEqual([]);
      expect(await store.readReplayState(id, OTHER)).toEqual([]);
    });

    test("lists the keys a session's cache is under; a store that drops keys deletes their rows and parts, and only theirs", async () => {
      const { store } = await open();
      const id = await create(store);
      const under = (key: ReplayCacheKey) => ({
        rows: [withChecksum({ ...key, fromSeq: 1, toSeq: 3, lines: "a\n" })],
        parts: [partWithChecksum(key, { part: "head", ord: 0, body: "{}" })],
      });
      const THIRD: ReplayCacheKey = { version: 1, capabilities: "notices=0;compaction=0;rewound=9" };
      await store.putReplayCache(id, KEY, under(KEY));
      await store.putReplayCache(id, OTHER, { rows: [], parts: under(OTHER).parts });
      expect(await store.replayCacheKeys(id)).toEqual([KEY, OTHER]);
      await store.putReplayCache(id, THIRD, { ...under(THIRD), drop: [KEY, OTHER] });
      expect(await store.replayCacheKeys(id)).toEqual([THIRD]);
      expect(await store.readReplayCache(id, KEY)).toEqual([]);
      expect(await store.readReplayState(id, OTHER)).toEqual([]);
      expect((await store.readReplayCache(id, THIRD)).map((r) => r.lines)).toEqual(["a\n"]);
      expect(await store.replayCacheKeys("ses_none")).toEqual([]);
    });

    test("parts asked for by name come back alone, by their order; a name not stored is left out", async () => {
      const { store } = await open();
      const id = await create(store);
      await store.putReplayCache(id, KEY, {
        rows: [],
        parts: [part("head", 0, "{}"), part("card:y", 7, "Y"), part("card:x", 2, "X"), part("card:z", 9, "Z")],
      });
      const named = await store.readReplayState(id, KEY, ["card:z", "head", "card:x", "card:absent"]);
      expect(named.map((p) => p.part)).toEqual(["head", "card:x", "card:z"]);
      expect(await store.readReplayState(id, KEY, [])).toEqual([]);
      expect(await store.readReplayState(id, OTHER, ["head"])).toEqual([]);
    });

    test("rows read page by page are those stored, each with a checksum that holds over its lines", async () => {
      const { store } = await open();
      const id = await create(store);
      await store.putReplayCache(id, KEY, { rows: [row(1, 3, "a é\n"), row(4, 9, "b\n")], parts: [] });
      const read = [];
      for await (const page of store.readReplayPages(id, KEY)) read.push(...page);
      const decoder = new TextDecoder();
      expect(read.map((r) => (typeof r.lines === "string" ? r.lines : decoder.decode(r.lines)))).toEqual([
        "a é\n",
        "b\n",
      ]);
      expect(read.every(checksumHolds)).toBe(true);
    });

    test("rows that span many pages are read whole, in order, each page after the one before", async () => {
      const { store } = await open();
      const id = await create(store);
      // More rows than a page holds on either store (64 on SQLite, 256 on PostgreSQL), and no multiple of either.
      const rows = Array.from({ length: 601 }, (_, i) => row(2 * i + 1, 2 * i + 2, `line ${i}\n`));
      await store.putReplayCache(id, KEY, { rows, parts: [] });
      const starts: number[] = [];
      let pages = 0;
      for await (const page of store.readReplayPages(id, KEY)) {
        pages++;
        starts.push(...page.map((r) => r.fromSeq));
      }
      expect(starts).toEqual(rows.map((r) => r.fromSeq));
      expect(pages).toBeGreaterThan(2);
    });

    test("a row is replaced by one of the same start; a part's body is replaced, its first order kept", async () => {
      const { store } = await open();
      const id = await create(store);
      await store.putReplayCache(id, KEY, { rows: [row(1, 3, "a\n")], parts: [part("card:x", 2, "X")] });
      await store.putReplayCache(id, KEY, { rows: [row(1, 3, "A\n")], parts: [part("card:x", 0, "X2")] });
      expect((await store.readReplayCache(id, KEY)).map((r) => r.lines)).toEqual(["A\n"]);
      const [stored] = await store.readReplayState(id, KEY);
      expect([stored?.ord, stored?.body]).toEqual([2, "X2"]);
    });

    test("a process that does not hold the session's lease stores nothing", async () => {
      const { store } = await open();
      const id = await create(store);
      await store.release(id);
      const error = await journalError(() => store.putReplayCache(id, KEY, { rows: [row(1, 1, "a\n")], parts: [] }));
      expect(error.code).toBe("busy");
      expect(await store.readReplayCache(id, KEY)).toEqual([]);
    });

    test("deleting the session removes its cache; its size is measured against its facts", async () => {
      const { store } = await open();
      const id = await create(store);
      await store.putReplayCache(id, KEY, { rows: [row(1, 1, "abc\n")], parts: [part("head", 0, "{}")] });
      const size = await store.replayCacheSize(id);
      expect(size.cacheBytes).toBeGreaterThan(0);
      expect(size.factBytes).toBeGreaterThan(0);
      expect(await store.delete(id)).toBe(true);
      expect(await store.readReplayCache(id)).toEqual([]);
      expect(await store.readReplayState(id, KEY)).toEqual([]);
    });

    test("the agent keeps the cache here and a load from it writes the bytes of a load from the facts", async () => {
      const { env, store } = await open();
      const box = sandbox("scripted/demo");
      const agentEnv = { ...box.env, ...env };
      const live = await connectProcess(agentEnv);
      let sessionId = "";
      try {
        sessionId = (await newSession(live.ctx, box.workspace)).sessionId;
        for (const text of ["first", "second"]) await prompt(live.ctx, sessionId, text);
        let rows = 0;
        const poll = async () => {
          rows = (await store.readReplayCache(sessionId, AGENT_KEY)).length;
        };
        const timer = setInterval(poll, 50);
        try {
          await until(() => rows === 2, "a cached row for each of the two turns");
        } finally {
          clearInterval(timer);
        }
      } finally {
        await live.close();
      }
      expect((await store.readReplayCache(sessionId, AGENT_KEY)).length).toBe(2);
      const cached = await loadBytes(agentEnv, sessionId, box.workspace);
      const facts = await loadBytes({ ...agentEnv, VERBATIM_REPLAY_CACHE: "off" }, sessionId, box.workspace);
      expect(cached).toContain('"id":2,"result"');
      expect(cached).toBe(facts);
    });
  });
}
