import { describe, expect, test } from "bun:test";
import { engineDeps } from "../../src/core/engine-deps.ts";
import { SessionRuntime } from "../../src/core/session/session-runtime.ts";
import type { StoredFact } from "../../src/journal/facts/index.ts";
import type { SqliteJournal } from "../../src/journal/sqlite-store.ts";
import { sandbox } from "../support/workspace.ts";

describe("journal first, then send", () => {
  test("every fact is in the journal before it is shown", async () => {
    const box = sandbox("scripted/demo");
    const deps = engineDeps(box.env);
    const shown: StoredFact[] = [];
    let unjournaled = 0;
    const runtime = await SessionRuntime.create(
      deps,
      (sessionId) => ({
        host: {},
        publish: (record) => {
          // Streamed chunks are committed in groups, so later facts may already be stored too.
          const stored = [...(deps.store as SqliteJournal).read(sessionId, record.seq)][0];
          if (stored?.seq !== record.seq || !Bun.deepEquals(stored.fact, record.fact)) unjournaled++;
          shown.push(record);
        },
      }),
      { cwd: box.workspace, additionalDirectories: [] },
    );
    const outcome = await runtime.prompt([{ type: "text", text: "Overview" }]);
    expect(outcome).toEqual({ ok: true, stopReason: "end_turn" });
    expect(shown.length).toBeGreaterThan(20);
    expect(unjournaled).toBe(0);
    await runtime.close();
    await deps.store.close();
  });
});
