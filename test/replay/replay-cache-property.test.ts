/**
 * Property: for random sessions (prompts, streamed chunks whose messages may run on across a
 * turn's end, notices, plans, tool calls left open or finished, retracted turns, an unfinished
 * last turn, hook outcomes and permissions on earlier turns' cards), a load from the replay cache
 * (its rows and the state after them) writes exactly the bytes of a load from the facts.
 * Sessions are written through the store API; their cache is derived as the writer does.
 * Reproduce a failure with VERBATIM_TEST_SEED.
 */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { randomSession } from "../support/random-session.ts";
import { storeCache, type DerivedCache } from "../support/replay-cache-rows.ts";
import { SqliteJournal } from "../../src/journal/sqlite-store.ts";
import { cacheOf } from "../../src/replay/replay-segments.ts";
import { startFact } from "../../bench/lib/facts.ts";
import { loadBytes } from "../support/load-bytes.ts";
import { seededRandom, suiteSeed } from "../support/seeded.ts";
import { sandbox } from "../support/workspace.ts";

const SEED = suiteSeed(2323);
const SESSIONS = 4;

test(`random sessions load to the same bytes from the cache as from the facts (seed ${SEED})`, async () => {
  const random = seededRandom(SEED);
  const box = sandbox("scripted/plain");
  const journal = new SqliteJournal(join(box.home, "journal.db"));
  const sessions: string[] = [];
  const at = "2026-12-01T00:00:00.000Z";
  for (let s = 0; s < SESSIONS; s++) {
    const sessionId = `ses_prop_${SEED}_${s}`;
    await journal.create(
      { sessionId, cwd: box.workspace, additionalDirectories: [], createdAt: at, updatedAt: at },
      startFact(box.workspace),
    );
    const facts = randomSession(random, sessionId);
    await journal.appendMany(
      sessionId,
      2,
      facts.map((fact) => ({ fact, at })),
    );
    await journal.release(sessionId);
    sessions.push(sessionId);
  }
  const capabilitySets = [{}, { session: { notices: {}, compaction: {} } }];
  const caches = new Map<string, DerivedCache>();
  for (const sessionId of sessions) {
    for (const [i, caps] of capabilitySets.entries()) {
      const session = (caps as { session?: object }).session;
      const capabilities = { notices: session !== undefined, compaction: session !== undefined };
      const cache = await cacheOf(sessionId, capabilities, journal.readPages(sessionId));
      caches.set(`${sessionId}/${i}`, cache);
    }
  }
  await journal.close();
  for (const [key, cache] of caches) {
    const [sessionId, i] = key.split("/");
    const session = (capabilitySets[Number(i)] as { session?: object }).session;
    storeCache(join(box.home, "journal.db"), sessionId!, { notices: !!session, compaction: !!session }, cache);
  }
  const mismatched: string[] = [];
  for (const sessionId of sessions) {
    for (const caps of capabilitySets) {
      const factsOnly = await loadBytes({ ...box.env, VERBATIM_REPLAY_CACHE: "off" }, sessionId, box.workspace, caps);
      const cached = await loadBytes(box.env, sessionId, box.workspace, caps);
      if (cached !== factsOnly) mismatched.push(`${sessionId} ${JSON.stringify(caps)}`);
    }
  }
  expect([...caches.values()].some((c) => c.rows.length > 0 && c.parts.length > 0)).toBe(true);
  expect(mismatched).toEqual([]);
}, 120_000);
