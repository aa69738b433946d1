/**
 * The golden journals (test/fixtures/journals/) load the same from PostgreSQL: each golden's raw
 * rows, inserted as they are into a fresh PostgreSQL journal, are loaded by a freshly spawned
 * verbatim with VERBATIM_JOURNAL set; the view its client folds must equal the recorded one.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { diffValues } from "../../src/view/view-diff.ts";
import type { ViewModel } from "../../src/view/view-model.ts";
import {
  asJson,
  goldenNames,
  importRowsToPostgres,
  loadedViews,
  readGolden,
  type Golden,
} from "../support/golden-journals.ts";
import { freshDatabase } from "../support/postgres-server.ts";
import { sandbox } from "../support/workspace.ts";

const goldens: Golden[] = goldenNames().map(readGolden);
const views = new Map<string, ViewModel | Error>();

beforeAll(async () => {
  const url = await freshDatabase();
  await importRowsToPostgres(
    url,
    goldens.flatMap((g) => g.rows),
  );
  const env = { ...sandbox("scripted/plain").env, VERBATIM_JOURNAL: url };
  const byCapabilities = Map.groupBy(goldens, (g) => JSON.stringify(g.meta.loadCapabilities));
  for (const group of byCapabilities.values()) {
    const loads = group.map((g) => ({ sessionId: g.meta.sessionId, cwd: g.meta.cwd }));
    for (const [sessionId, view] of await loadedViews(env, loads, group[0]!.meta.loadCapabilities))
      views.set(sessionId, view);
  }
}, 90_000);

describe.each(goldens.map((g) => [g.meta.name, g] as const))("golden %s from PostgreSQL", (_name, golden) => {
  test("loads in a fresh process to the recorded view, field by field", () => {
    const view = views.get(golden.meta.sessionId);
    if (view instanceof Error) throw view;
    expect(diffValues(golden.expectedView, asJson(view))).toEqual([]);
  });
});
