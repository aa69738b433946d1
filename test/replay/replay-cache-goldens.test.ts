/**
 * The replay cache is proven equal to the facts on every golden journal: each golden's rows,
 * imported as they are, loaded from the facts alone (the cache off), then with the cache its
 * facts derive to (rows and state: the load reads only the records after the state), must write
 * the same bytes. The rows and state derived are recorded per projection version
 * (test/fixtures/replay-cache/v<N>.json): a change to what replay sends, or to the state it
 * keeps, without a new `PROJECTION_VERSION` fails here, so that no cache stored by the old
 * projection is ever used.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SqliteJournal } from "../../src/journal/sqlite-store.ts";
import { PROJECTION_VERSION } from "../../src/replay/cache-key.ts";
import { cacheOf } from "../../src/replay/replay-segments.ts";
import { retractionOf, type Retraction } from "../../src/replay/retraction.ts";
import { storeCache, type DerivedCache } from "../support/replay-cache-rows.ts";
import { goldenNames, importRows, readGolden, sha256, type Golden } from "../support/golden-journals.ts";
import { loadBytes } from "../support/load-bytes.ts";
import { sandbox } from "../support/workspace.ts";

const goldens: Golden[] = goldenNames().map(readGolden);
const RECORDED = join(import.meta.dir, "..", "fixtures", "replay-cache", `v${PROJECTION_VERSION}.json`);

const capabilitiesOf = (g: Golden) => {
  const session = (g.meta.loadCapabilities as { session?: { notices?: unknown; compaction?: unknown } }).session;
  return { notices: session?.notices != null, compaction: session?.compaction != null };
};

const derived = new Map<string, DerivedCache>();
/** Each golden's last rewind, for the ones that have one (their cache is under its key). */
const retractions = new Map<string, Retraction>();
let home = "";
let env: Record<string, string> = {};
beforeAll(async () => {
  const box = sandbox("scripted/plain");
  home = box.home;
  env = box.env;
  const path = importRows(
    home,
    goldens.flatMap((g) => g.rows),
  );
  const journal = new SqliteJournal(path);
  try {
    for (const g of goldens) {
      const retraction = retractionOf(await journal.lastOf(g.meta.sessionId, ["session_rewound"]));
      if (retraction) retractions.set(g.meta.name, retraction);
      const pages = journal.readPages(g.meta.sessionId);
      derived.set(g.meta.name, await cacheOf(g.meta.sessionId, capabilitiesOf(g), pages, retraction));
    }
  } finally {
    await journal.close();
  }
});

describe("the replay cache on the golden journals", () => {
  test("some golden has finished turns to cache", () => {
    expect([...derived.values()].some((cache) => cache.rows.length > 0 && cache.parts.length > 0)).toBe(true);
  });

  test("rows derived are those recorded for this projection version (a changed projection bumps PROJECTION_VERSION)", () => {
    const hashes = Object.fromEntries(
      goldens.flatMap((g) => [
        [g.meta.name, sha256(JSON.stringify(derived.get(g.meta.name)?.rows))],
        [`${g.meta.name} state`, sha256(JSON.stringify(derived.get(g.meta.name)?.parts))],
      ]),
    );
    const recorded = existsSync(RECORDED) ? (JSON.parse(readFileSync(RECORDED, "utf8")) as Record<string, string>) : {};
    // A golden added later is recorded with RECORD_REPLAY_CACHE=1; one recorded is never re-recorded.
    if (process.env.RECORD_REPLAY_CACHE === "1")
      writeFileSync(RECORDED, `${JSON.stringify({ ...hashes, ...recorded }, null, 2)}\n`);
    expect(Object.keys(recorded).length).toBeGreaterThan(0);
    expect(Object.fromEntries(Object.keys(recorded).map((name) => [name, hashes[name]]))).toEqual(recorded);
  });

  for (const g of goldens) {
    // The two loads are also the two ways a load is served: after the engine has loaded, and before it (replay-first.ts).
    test(`${g.meta.name} loads to the same bytes from its cache as from its facts, before the engine as after it`, async () => {
      const factsOnly = await loadBytes(
        { ...env, VERBATIM_REPLAY_CACHE: "off", VERBATIM_REPLAY_FIRST: "off" },
        g.meta.sessionId,
        g.meta.cwd,
        g.meta.loadCapabilities,
      );
      const cache = derived.get(g.meta.name) ?? { rows: [], parts: [] };
      const rewoundAt = retractions.get(g.meta.name)?.rewoundAt;
      storeCache(join(home, "journal.db"), g.meta.sessionId, capabilitiesOf(g), cache, rewoundAt);
      expect(
        await loadBytes(
          { ...env, VERBATIM_REPLAY_FIRST: "always" },
          g.meta.sessionId,
          g.meta.cwd,
          g.meta.loadCapabilities,
        ),
      ).toBe(factsOnly);
    });
  }
});
