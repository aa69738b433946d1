/**
 * Golden journals load the same forever. Each golden in test/fixtures/journals/ is a session's
 * raw rows, imported into a fresh journal as they are (no encoder), loaded by a freshly spawned
 * verbatim through `session/load`; the view its client folds must equal the one recorded, field
 * by field, and the facts must fold to the recorded model conversation. Every fact kind must be
 * in some golden: a new kind fails here until `generate.ts` records one.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { factSchema } from "../../src/journal/facts/index.ts";
import { diffValues } from "../../src/view/view-diff.ts";
import type { ViewModel } from "../../src/view/view-model.ts";
import { dumpDatabase } from "../support/db-dump.ts";
import {
  asJson,
  conversationOf,
  goldenNames,
  importRows,
  loadedViews,
  readGolden,
  sha256,
  storedFacts,
  type Golden,
} from "../support/golden-journals.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";

const goldens: Golden[] = goldenNames().map(readGolden);
const factKinds = factSchema.options.map((option) => option.shape.kind.value).sort();

describe("the golden journals", () => {
  test("there are some", () => {
    expect(goldens.length).toBeGreaterThan(0);
  });

  test("every fact kind is in at least one golden (record one with test/fixtures/journals/generate.ts)", () => {
    const stored = new Set(
      goldens.flatMap((g) => g.rows.filter((r) => r.table === "facts").map((r) => String(r.row.kind))),
    );
    expect(factKinds.filter((kind) => !stored.has(kind))).toEqual([]);
  });

  test("each golden's rows are exactly as recorded (goldens are never edited)", () => {
    expect(goldens.map((g) => [g.meta.name, sha256(g.rowsText)])).toEqual(
      goldens.map((g) => [g.meta.name, g.meta.rowsSha256]),
    );
  });

  test("each golden's directory is named for it and lists the kinds its rows hold", () => {
    for (const g of goldens) {
      expect(g.dir.endsWith(`/${g.meta.name}`)).toBe(true);
      expect(g.meta.kinds).toEqual(
        [...new Set(g.rows.filter((r) => r.table === "facts").map((r) => String(r.row.kind)))].sort(),
      );
    }
  });
});

// All goldens go into one journal (their session ids are unique) and are loaded by one process
// for each set of client capabilities they were recorded with.
let box: Sandbox;
let before: Record<string, unknown[]>;
const views = new Map<string, ViewModel | Error>();
beforeAll(async () => {
  box = sandbox("scripted/plain");
  before = dumpDatabase(
    importRows(
      box.home,
      goldens.flatMap((g) => g.rows),
    ),
  );
  const byCapabilities = Map.groupBy(goldens, (g) => JSON.stringify(g.meta.loadCapabilities));
  for (const group of byCapabilities.values()) {
    const loads = group.map((g) => ({ sessionId: g.meta.sessionId, cwd: g.meta.cwd }));
    for (const [sessionId, view] of await loadedViews(box.env, loads, group[0]!.meta.loadCapabilities))
      views.set(sessionId, view);
  }
}, 60_000);

describe.each(goldens.map((g) => [g.meta.name, g] as const))("golden %s", (_name, golden) => {
  test("loads in a fresh process to the recorded view, field by field", () => {
    const view = views.get(golden.meta.sessionId);
    if (view instanceof Error) throw view;
    expect(diffValues(golden.expectedView, asJson(view))).toEqual([]);
  });

  test("folds to the recorded model conversation", () => {
    expect(
      diffValues(golden.expectedConversation, conversationOf(storedFacts(box.home, golden.meta.sessionId))),
    ).toEqual([]);
  });
});

test("loading the goldens wrote nothing", () => {
  expect(dumpDatabase(`${box.home}/journal.db`)).toEqual(before);
});
