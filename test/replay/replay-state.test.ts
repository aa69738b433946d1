/**
 * The state the replay cache keeps after a turn is the state the facts fold to: restored at any
 * finished turn (in two steps, as a load restores it), then fed the records after it, it sends what a replay of every record sends
 * (interruption marks included), folds to the same session state, stores the same parts, and
 * projects the same live updates afterwards. Checked at every turn's end of every golden journal
 * and of many random sessions (pure: no process). Reproduce a failure with VERBATIM_TEST_SEED.
 */
import { snapshotFold } from "../../src/replay/fold-snapshot.ts";
import { beforeAll, describe, expect, test } from "bun:test";
import { startFact } from "../../bench/lib/facts.ts";
import type { Fact, StoredFact } from "../../src/journal/facts/index.ts";
import { SqliteJournal } from "../../src/journal/sqlite-store.ts";
import { readAll } from "../../src/journal/store.ts";
import { Projector } from "../../src/replay/project.ts";
import { ReplayPipeline } from "../../src/replay/replay-pipeline.ts";
import { cacheKey, type ReplayCapabilities } from "../../src/replay/cache-key.ts";
import { ReplaySegments, updateLine } from "../../src/replay/replay-segments.ts";
import {
  openingPartNames,
  restoreOpening,
  restoreRest,
  restoreState,
  stateHead,
  type StatePart,
} from "../../src/replay/replay-state.ts";
import { SessionStateFold } from "../../src/replay/state.ts";
import { goldenNames, importRows, readGolden } from "../support/golden-journals.ts";
import { randomSession } from "../support/random-session.ts";
import { seededRandom, suiteSeed } from "../support/seeded.ts";
import { sandbox } from "../support/workspace.ts";

const SEED = suiteSeed(2331);
const RANDOM_SESSIONS = 150;
const CAPABILITY_SETS: ReplayCapabilities[] = [
  { notices: false, compaction: false },
  { notices: true, compaction: true },
];

/** Parts merged as a store keeps them: a later part replaces an earlier one's body, keeping its first order. */
function merge(into: Map<string, StatePart>, parts: readonly StatePart[]): void {
  for (const p of parts) {
    const earlier = into.get(p.part);
    into.set(p.part, earlier ? { ...p, ord: earlier.ord } : p);
  }
}

/** As a store reads them: by order, then name. */
const stored = (parts: Map<string, StatePart>) =>
  [...parts.values()].sort((a, b) => a.ord - b.ord || (a.part < b.part ? -1 : a.part > b.part ? 1 : 0));

const sends = (sessionId: string, updates: Iterable<Parameters<typeof updateLine>[1]>) => {
  let text = "";
  for (const u of updates) text += updateLine(sessionId, u);
  return text;
};

/** What one load from every record sends, and the projector and fold it ends with. */
function fromFacts(sessionId: string, capabilities: ReplayCapabilities, records: readonly StoredFact[]) {
  const projector = new Projector({ ...capabilities, replay: true, sessionId });
  const pipeline = new ReplayPipeline(projector);
  const fold = new SessionStateFold();
  let text = "";
  for (const r of records) {
    text += sends(sessionId, pipeline.push(r));
    fold.apply(r.fact, r.seq);
  }
  text += sends(sessionId, pipeline.end(true));
  return { text, projector, fold };
}

/** Facts a live session might go on with, touching every card there is. */
function liveFacts(projector: Projector): Fact[] {
  const facts: Fact[] = [{ kind: "prompt_received", turnId: "t_live", messageId: "u_live", blocks: [] }];
  for (const id of [...projector.folded.cards.ids()]) {
    facts.push({ kind: "tool_call_started", toolCallId: id });
    facts.push({
      kind: "tool_call_finished",
      toolCallId: id,
      status: "completed",
      content: [{ type: "content", content: { type: "text", text: "again" } }],
      result: { text: "again", isError: false },
    });
  }
  return facts;
}

function checkEveryTurn(sessionId: string, capabilities: ReplayCapabilities, records: readonly StoredFact[]): string[] {
  const problems: string[] = [];
  const expected = fromFacts(sessionId, capabilities, records);
  const segments = new ReplaySegments(sessionId, capabilities);
  const parts = new Map<string, StatePart>();
  let lines = "";
  for (const [i, record] of records.entries()) {
    const turn = segments.push(record);
    if (!turn) continue;
    lines += turn.row.lines;
    merge(parts, turn.parts);
    const at = `${sessionId} ${JSON.stringify(cacheKey(capabilities))} at record ${record.seq}`;
    const saved = stored(parts);
    const head = stateHead(saved);
    if (head?.toSeq !== record.seq) problems.push(`${at}: the head names record ${head?.toSeq}`);
    if (!head) continue;
    // A load: the rows' lines, then the records after the state from a projector restored as a
    // load restores it: the head and the open calls' cards first, the rest before the next fact.
    const projector = new Projector({ ...capabilities, replay: true, sessionId });
    const fold = new SessionStateFold();
    const opening = new Set(openingPartNames(head));
    restoreOpening(
      saved.filter((p) => opening.has(p.part)),
      head,
      projector,
      fold,
    );
    // restoreState in one step: the order of cards the two steps must end with.
    const inOneStep = new Projector({ ...capabilities, replay: true, sessionId });
    restoreState(saved, head, inOneStep);
    let whole = false;
    const complete = () => {
      if (whole) return;
      whole = true;
      restoreRest(saved, projector);
      const ids = (p: Projector) => JSON.stringify([...p.folded.cards.ids()]);
      if (ids(projector) !== ids(inOneStep))
        problems.push(`${at}: the cards restored in two steps are in another order`);
    };
    const pipeline = new ReplayPipeline(projector);
    let text = lines;
    const tail = records.slice(i + 1);
    for (const r of tail) {
      complete();
      text += sends(sessionId, pipeline.push(r));
      fold.apply(r.fact, r.seq);
    }
    text += sends(sessionId, pipeline.end(true));
    complete();
    if (text !== expected.text) problems.push(`${at}: the load sends other bytes`);
    if (snapshotFold(fold) !== snapshotFold(expected.fold)) problems.push(`${at}: the session state differs`);
    // The writer continuing from the state stores what one from record 1 stores.
    const resumed = new ReplaySegments(sessionId, capabilities);
    resumed.resume(saved, head);
    const full = new ReplaySegments(sessionId, capabilities);
    const resumedParts = new Map(parts);
    const fullParts = new Map<string, StatePart>();
    for (const r of records) {
      const f = full.push(r);
      if (f) merge(fullParts, f.parts);
      if (r.seq <= record.seq) continue;
      const t = resumed.push(r);
      if (t) merge(resumedParts, t.parts);
      if (t && t.row.lines !== f?.row.lines) problems.push(`${at}: the resumed writer's row at ${r.seq} differs`);
    }
    if (JSON.stringify(stored(resumedParts)) !== JSON.stringify(stored(fullParts)))
      problems.push(`${at}: the resumed writer stores other parts`);
    // And live, after the load, both project the same.
    for (const fact of liveFacts(expected.projector)) {
      const live = { seq: 0, at: "2026-12-01T00:00:00.000Z", fact };
      const a = JSON.stringify(projector.apply(live));
      const b = JSON.stringify(expected.projector.apply(live));
      if (a !== b) {
        problems.push(`${at}: live ${fact.kind} projects otherwise after the restore`);
        break;
      }
    }
    // `expected.projector` has moved on: start it again for the next turn.
    expected.projector = fromFacts(sessionId, capabilities, records).projector;
  }
  return problems;
}

const at = "2026-12-01T00:00:00.000Z";
const randomRecords = (facts: Fact[]): StoredFact[] =>
  [startFact("/w"), ...facts].map((fact, i) => ({ seq: i + 1, at, fact }));

describe("the replay cache's state", () => {
  test(`restored at every turn's end of random sessions, it goes on as the facts do (seed ${SEED})`, () => {
    const random = seededRandom(SEED);
    const problems: string[] = [];
    let turnsChecked = 0;
    for (let s = 0; s < RANDOM_SESSIONS; s++) {
      const sessionId = `ses_state_${s}`;
      const records = randomRecords(randomSession(random, sessionId));
      turnsChecked += records.filter((r) => r.fact.kind === "turn_ended").length;
      for (const capabilities of CAPABILITY_SETS) problems.push(...checkEveryTurn(sessionId, capabilities, records));
    }
    expect(turnsChecked).toBeGreaterThan(RANDOM_SESSIONS);
    expect(problems).toEqual([]);
  });

  const goldens = goldenNames().map(readGolden);
  const records = new Map<string, StoredFact[]>();
  beforeAll(async () => {
    const box = sandbox("scripted/plain");
    const journal = new SqliteJournal(
      importRows(
        box.home,
        goldens.flatMap((g) => g.rows),
      ),
    );
    try {
      for (const g of goldens) records.set(g.meta.name, await readAll(journal, g.meta.sessionId));
    } finally {
      await journal.close();
    }
  });

  for (const g of goldens) {
    test(`restored at every turn's end of ${g.meta.name}, it goes on as the facts do`, () => {
      const all = records.get(g.meta.name) ?? [];
      const problems = CAPABILITY_SETS.flatMap((c) => checkEveryTurn(g.meta.sessionId, c, all));
      expect(problems).toEqual([]);
    });
  }
});
