/**
 * The rest of a state a load restored from the replay cache (the settled calls' cards, hook
 * outcomes, compactions): read once the session projects its next fact, it completes the
 * projector to what a replay of the facts folds to; when a part fails its checksum, or the stored
 * state is no longer the one the load opened, the projector is completed from the facts instead.
 * Checked on every golden journal whose cached state has a settled card.
 */
import { Database } from "bun:sqlite";
import { beforeAll, describe, expect, test } from "bun:test";
import { cachedState, type CachedState } from "../../src/core/replay-cache/cached-replay.ts";
import { StateRest } from "../../src/core/replay-cache/state-rest.ts";
import { partWithChecksum, type ReplayStatePart } from "../../src/journal/replay-cache.ts";
import { putPart, readParts } from "../../src/journal/sqlite-replay-cache.ts";
import { SqliteJournal } from "../../src/journal/sqlite-store.ts";
import { readAll } from "../../src/journal/store.ts";
import { cardJson } from "../../src/replay/card-table.ts";
import { Projector } from "../../src/replay/project.ts";
import { cacheKey, type ReplayCapabilities } from "../../src/replay/cache-key.ts";
import { cacheOf } from "../../src/replay/replay-segments.ts";
import { restoreOpening } from "../../src/replay/replay-state.ts";
import { goldenNames, importRows, readGolden, type Golden } from "../support/golden-journals.ts";
import { storeCache } from "../support/replay-cache-rows.ts";
import { sandbox } from "../support/workspace.ts";

const CAPS: ReplayCapabilities = { notices: false, compaction: false };
const KEY = cacheKey(CAPS);
const goldens: Golden[] = goldenNames().map(readGolden);

/** A projector's cards (in order), hook outcomes and compactions, as text. */
function folded(projector: Projector): string {
  const { cards, hooks, compactions } = projector.folded;
  return JSON.stringify({
    cards: [...cards.ids()].map((id) => cardJson(cards.get(id)!)),
    hooks: [...hooks.shown].map(([id, shown]) => [id, { ...shown, card: shown.card && cardJson(shown.card) }]),
    compactions: [...compactions],
  });
}

let path = "";
/** Per golden: its session, and what a replay of its facts up to the cached state folds to. */
const cases: { name: string; sessionId: string; expected: string }[] = [];

beforeAll(async () => {
  const box = sandbox("scripted/plain");
  path = importRows(
    box.home,
    goldens.flatMap((g) => g.rows),
  );
  const journal = new SqliteJournal(path);
  try {
    for (const g of goldens) {
      const sessionId = g.meta.sessionId;
      const cache = await cacheOf(sessionId, CAPS, journal.readPages(sessionId));
      const head = cache.parts.find((p) => p.part === "head");
      if (!head) continue;
      const { toSeq, unsettled } = JSON.parse(head.body) as { toSeq: number; unsettled: string[] };
      const settled = cache.parts.filter((p) => p.part.startsWith("card:") && !unsettled.includes(p.part.slice(5)));
      if (settled.length === 0) continue;
      storeCache(path, sessionId, CAPS, cache);
      const replayed = new Projector({ ...CAPS, replay: true, sessionId });
      for (const record of await readAll(journal, sessionId)) if (record.seq <= toSeq) replayed.apply(record);
      cases.push({ name: g.meta.name, sessionId, expected: folded(replayed) });
    }
  } finally {
    await journal.close();
  }
});

/** Opens the stored state as a load does (the head and the open calls' cards); the rest waits. */
async function open(journal: SqliteJournal, sessionId: string) {
  const parts = withDb((db) => readParts(db, sessionId, KEY));
  const toSeq = (JSON.parse(parts.find((p) => p.part === "head")!.body) as { toSeq: number }).toSeq;
  const state = (await cachedState(journal, sessionId, KEY, toSeq)) as CachedState;
  expect(state).toBeDefined();
  const projector = new Projector({ ...CAPS, replay: true, sessionId });
  restoreOpening(state.parts, state.head, projector);
  return { projector, rest: new StateRest(journal, sessionId, KEY, state, projector) };
}

function withDb<T>(run: (db: Database) => T): T {
  const db = new Database(path);
  try {
    return run(db);
  } finally {
    db.close();
  }
}

const settledCard = (sessionId: string): ReplayStatePart => {
  const parts = withDb((db) => readParts(db, sessionId, KEY));
  const { unsettled } = JSON.parse(parts.find((p) => p.part === "head")!.body) as { unsettled: string[] };
  return parts.find((p) => p.part.startsWith("card:") && !unsettled.includes(p.part.slice(5)))!;
};

/** A stored part with its body changed: `signed` gives it a checksum that holds, as a writer would. */
function replacePart(sessionId: string, part: ReplayStatePart, body: string, signed: boolean): void {
  const changed = signed ? partWithChecksum(KEY, { part: part.part, ord: part.ord, body }) : { ...part, body };
  withDb((db) => putPart(db, sessionId, KEY, changed));
}

/** Runs `check` on each golden with a settled card, then stores its cache again as derived. */
async function eachCase(check: (journal: SqliteJournal, sessionId: string, expected: string) => Promise<void>) {
  expect(cases.length).toBeGreaterThan(0);
  for (const { sessionId, expected } of cases) {
    const journal = new SqliteJournal(path);
    const saved = withDb((db) => readParts(db, sessionId, KEY));
    try {
      await check(journal, sessionId, expected);
    } finally {
      await journal.close();
      withDb((db) => {
        for (const part of saved) putPart(db, sessionId, KEY, part);
      });
    }
  }
}

describe("the rest of a cached state", () => {
  test("a load opens the head and the open calls' cards only; the rest completes the projector as the facts fold it", () =>
    eachCase(async (journal, sessionId, expected) => {
      const { projector, rest } = await open(journal, sessionId);
      expect(projector.folded.cards.get(settledCard(sessionId).part.slice(5))).toBeUndefined();
      await rest.ready();
      expect(folded(projector)).toBe(expected);
      expect(rest.ready()).toBeUndefined();
    }));

  test("a settled card's part that fails its checksum: the projector is completed from the facts", () =>
    eachCase(async (journal, sessionId, expected) => {
      const { projector, rest } = await open(journal, sessionId);
      const card = settledCard(sessionId);
      replacePart(sessionId, card, card.body.replace('"status":"completed"', '"status":"failed"'), false);
      await rest.ready();
      expect(folded(projector)).toBe(expected);
    }));

  test("a state stored again since the load opened it (another writer's turn): the projector is completed from the facts up to the state opened", () =>
    eachCase(async (journal, sessionId, expected) => {
      const { projector, rest } = await open(journal, sessionId);
      const head = withDb((db) => readParts(db, sessionId, KEY)).find((p) => p.part === "head")!;
      const card = settledCard(sessionId);
      // As a later turn's end stores them: a new head, and a card changed, each with a checksum that holds.
      replacePart(sessionId, head, head.body.replace('"toSeq":', '"toSeq":1'), true);
      replacePart(sessionId, card, card.body.replace('"status":"completed"', '"status":"failed"'), true);
      await rest.ready();
      expect(folded(projector)).toBe(expected);
    }));

  test("a read that fails rejects, and the next call reads again", async () => {
    const { sessionId, expected } = cases[0]!;
    const journal = new SqliteJournal(path);
    try {
      const { projector } = await open(journal, sessionId);
      const state = (await cachedState(journal, sessionId, KEY, undefined)) as CachedState;
      let failures = 1;
      const flaky = Object.create(journal) as SqliteJournal;
      flaky.readReplayState = (...args) => {
        if (failures-- > 0) return Promise.reject(new Error("the journal cannot be reached"));
        return journal.readReplayState(...args);
      };
      const rest = new StateRest(flaky, sessionId, KEY, state, projector);
      await expect(rest.ready()!).rejects.toThrow("cannot be reached");
      await rest.ready();
      expect(folded(projector)).toBe(expected);
    } finally {
      await journal.close();
    }
  });
});
