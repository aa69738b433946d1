/**
 * Counting a request: the estimate (the last step's reported usage plus what was added since) is
 * checked with Anthropic's count_tokens only when it is near the threshold, so the common step
 * costs no extra request; the provider's count then decides.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, test } from "bun:test";
import { journalFile } from "../../src/journal/paths.ts";
import { SqliteJournal } from "../../src/journal/sqlite-store.ts";
import { connectProcess, newSession, prompt } from "../support/acp-session.ts";
import { fixtureServer, type FixtureResponse } from "../support/fixture-server.ts";
import { settingsPath } from "../support/hooks.ts";
import { anthropicKit as kit, modelRef } from "../support/provider-kits.ts";
import { sandbox } from "../support/workspace.ts";

/** About 1,200 tokens a read. */
const LOG = "compiling module: ok; linking: ok; tests: 42 passed\n".repeat(92);

/** Four reads in a 10,000-token window at a 50% threshold: the next request is estimated near 5,000 tokens. */
async function fourReads(count: FixtureResponse | undefined) {
  const server = fixtureServer();
  const box = sandbox(modelRef(kit));
  writeFileSync(join(box.workspace, "build.log"), LOG);
  const config = settingsPath(box, "verbatim-user");
  mkdirSync(dirname(config), { recursive: true });
  writeFileSync(
    config,
    JSON.stringify({ providers: { anthropic: { models: { [kit.model]: { contextWindow: 10_000 } } } } }),
  );
  Object.assign(box.env, kit.env(server), { VERBATIM_AUTOCOMPACT_PCT: "50" });
  const read = (id: string) => ({ id, name: "Read", input: { file_path: join(box.workspace, "build.log") } });
  server.enqueue(
    { sse: kit.callsReporting([read("call_a"), read("call_b"), read("call_c"), read("call_d")], 100) },
    ...(count ? [count] : []),
    { sse: kit.text("Read it four times.") },
  );
  const c = await connectProcess(box.env);
  let sessionId = "";
  try {
    sessionId = (await newSession(c.ctx, box.workspace)).sessionId;
    expect((await prompt(c.ctx, sessionId, "Read the build log four times")).stopReason).toBe("end_turn");
  } finally {
    await c.close();
  }
  const journal = new SqliteJournal(journalFile(box.home));
  try {
    const kinds = [...journal.read(sessionId)].map((r) => r.fact.kind);
    return { paths: server.requests.map((r) => r.path), pruned: kinds.includes("tool_results_pruned") };
  } finally {
    journal.closeNow();
  }
}

describe("counting the next request", () => {
  test("near the threshold, count_tokens is asked once; a count under it means nothing is pruned", async () => {
    const r = await fourReads({ status: 200, json: { input_tokens: 3000 } });
    expect(r.paths).toEqual(["/v1/messages", "/v1/messages/count_tokens", "/v1/messages"]);
    expect(r.pruned).toBe(false);
  });

  test("a count over the threshold prunes the oldest read", async () => {
    const r = await fourReads({ status: 200, json: { input_tokens: 6000 } });
    expect(r.paths).toEqual(["/v1/messages", "/v1/messages/count_tokens", "/v1/messages"]);
    expect(r.pruned).toBe(true);
  });

  test("a count that fails leaves the estimate to decide; the turn goes on", async () => {
    const r = await fourReads({ status: 500, json: { type: "error", error: { type: "api_error", message: "down" } } });
    expect(r.paths).toEqual(["/v1/messages", "/v1/messages/count_tokens", "/v1/messages"]);
    expect(r.pruned).toBe(true);
  });
});
