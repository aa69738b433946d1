/**
 * The 40-step turn on the three wires: a fake model over the fixture server reads a large log
 * again and again, reporting the size of each request it was sent as its usage; in a small
 * window (16,000 tokens, the threshold at half) its requests are pruned, then compacted mid-turn, and the turn ends end_turn. Live and
 * reloaded views are the same.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, test } from "bun:test";
import { journalFile } from "../../src/journal/paths.ts";
import { SqliteJournal } from "../../src/journal/sqlite-store.ts";
import { prompt } from "../support/acp-session.ts";
import { fixtureServer, type FixtureResponse, type RecordedRequest } from "../support/fixture-server.ts";
import { settingsPath } from "../support/hooks.ts";
import { kits, modelRef, type Kit } from "../support/provider-kits.ts";
import { sandbox } from "../support/workspace.ts";
import { parity } from "../parity/harness.ts";

const READS = 40;
/** About 1,200 tokens a read. */
const LOG = "compiling module: ok; linking: ok; tests: 42 passed\n".repeat(92);

/** How many reads the request shows: the highest call id it holds, or what a summary opening it counted. */
function readsSoFar(body: string): number {
  const ids = [...body.matchAll(/call_read_(\d+)/g)].map((m) => Number(m[1]));
  const summarised = [...body.matchAll(/Summary: (\d+) reads so far/g)].map((m) => Number(m[1]));
  return Math.max(0, ...ids, ...summarised);
}

/** The fake model: a summary when asked for one, else the next read (or the end), reporting the request's size. */
function fakeModel(kit: Kit, logPath: string) {
  return (request: RecordedRequest): FixtureResponse => {
    const body = JSON.stringify(request.body);
    const size = Math.ceil(body.length / 4);
    if (request.path.endsWith("/count_tokens")) return { status: 200, json: { input_tokens: size } };
    const done = readsSoFar(body);
    if (body.includes("Summarise the conversation above.")) return { sse: kit.text(`Summary: ${done} reads so far.`) };
    if (done >= READS) return { sse: kit.text(`Done: ${done} reads.`) };
    const call = { id: `call_read_${done + 1}`, name: "Read", input: { file_path: logPath } };
    return { sse: kit.callsReporting([call], size) };
  };
}

describe.each(kits)("$kind: a 40-step turn that outgrows the window", (kit) => {
  test("prunes, then compacts at least twice mid-turn, and ends end_turn; live == reload", async () => {
    const server = fixtureServer();
    const box = sandbox(modelRef(kit));
    const logPath = join(box.workspace, "build.log");
    writeFileSync(logPath, LOG);
    const config = settingsPath(box, "verbatim-user");
    mkdirSync(dirname(config), { recursive: true });
    writeFileSync(
      config,
      JSON.stringify({ providers: { [kit.kind]: { models: { [kit.model]: { contextWindow: 16_000 } } } } }),
    );
    Object.assign(box.env, kit.env(server), { VERBATIM_AUTOCOMPACT_PCT: "50" });
    server.respondWith(fakeModel(kit, logPath));
    const r = await parity(
      modelRef(kit),
      async ({ ctx, sessionId }) => {
        expect((await prompt(ctx, sessionId, "Read the build log again and again")).stopReason).toBe("end_turn");
      },
      { box },
    );
    const journal = new SqliteJournal(journalFile(box.home));
    const facts = (() => {
      try {
        return [...journal.read(r.sessionId)].map((x) => x.fact);
      } finally {
        journal.closeNow();
      }
    })();
    expect(facts.filter((f) => f.kind === "tool_call_finished").length).toBe(READS);
    const window = facts.filter((f) => f.kind === "tool_results_pruned" || f.kind === "compaction_ended");
    expect(window[0]?.kind).toBe("tool_results_pruned");
    const compactions = facts.filter((f) => f.kind === "compaction_ended");
    expect(compactions.length).toBeGreaterThanOrEqual(2);
    expect(compactions.every((c) => c.outcome === "completed" && c.midTurn === true)).toBe(true);
    // No request the provider was sent passed the window.
    const sizes = server.requests.map((q) => Math.ceil(JSON.stringify(q.body).length / 4));
    expect(Math.max(...sizes)).toBeLessThan(16_000);
    expect(r.differences).toEqual([]);
  });
});
