/**
 * Request parity through pruning and mid-turn compaction, on the three wires: a session whose
 * first turn pruned old tool output (and, in the second case, then compacted between two steps)
 * is reopened in a fresh process; the next request its provider receives is byte-for-byte the
 * body a never-reloaded session sends. The provider's reported usage drives the measure: a 10,000
 * token window at a 50% threshold (VERBATIM_AUTOCOMPACT_PCT).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, test } from "bun:test";
import { connectProcess, load, newSession, prompt } from "../support/acp-session.ts";
import { fixtureServer, type FixtureResponse } from "../support/fixture-server.ts";
import { settingsPath } from "../support/hooks.ts";
import { kits, modelRef, type Kit } from "../support/provider-kits.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";

/** About 1,200 tokens a read. */
const LOG = "compiling module: ok; linking: ok; tests: 42 passed\n".repeat(92);

function windowBox(kit: Kit): Sandbox {
  const box = sandbox(modelRef(kit));
  writeFileSync(join(box.workspace, "build.log"), LOG);
  const config = settingsPath(box, "verbatim-user");
  mkdirSync(dirname(config), { recursive: true });
  writeFileSync(
    config,
    JSON.stringify({ providers: { [kit.kind]: { models: { [kit.model]: { contextWindow: 10_000 } } } } }),
  );
  box.env.VERBATIM_AUTOCOMPACT_PCT = "50";
  return box;
}

const reads = (box: Sandbox, ids: string[]) =>
  ids.map((id) => ({ id, name: "Read", input: { file_path: join(box.workspace, "build.log") } }));

/**
 * The first turn: five reads (the next request passes the threshold: the two oldest are pruned);
 * with `compact`, a sixth read in a step that reports a request near the window (pruning is not
 * enough: the conversation is compacted before the next step).
 */
function firstTurn(kit: Kit, box: Sandbox, compact: boolean): FixtureResponse[] {
  return [
    { sse: kit.callsReporting(reads(box, ["call_a", "call_b", "call_c", "call_d", "call_e"]), 500) },
    ...(compact
      ? [
          { sse: kit.callsReporting(reads(box, ["call_f"]), 6000) },
          { sse: kit.text("Summary: the build log was read six times; every run passed.") },
        ]
      : []),
    { sse: kit.text("Done reading.") },
  ];
}

/** Plays the first turn in two sessions; one goes on in its process, the other after a reopen. Returns both next bodies. */
async function nextRequests(kit: Kit, compact: boolean) {
  const server = fixtureServer();
  const box = windowBox(kit);
  Object.assign(box.env, kit.env(server));
  const secondTurn = (): FixtureResponse => ({ sse: kit.text("You're welcome.") });
  const live = await connectProcess(box.env);
  let reopened = "";
  let neverReloaded: unknown;
  try {
    const kept = (await newSession(live.ctx, box.workspace)).sessionId;
    server.enqueue(...firstTurn(kit, box, compact), secondTurn());
    expect((await prompt(live.ctx, kept, "Read the build log")).stopReason).toBe("end_turn");
    await prompt(live.ctx, kept, "Thanks");
    neverReloaded = server.requests.at(-1)?.body;
    reopened = (await newSession(live.ctx, box.workspace)).sessionId;
    server.enqueue(...firstTurn(kit, box, compact));
    await prompt(live.ctx, reopened, "Read the build log");
  } finally {
    await live.close();
  }
  const fresh = await connectProcess(box.env);
  try {
    await load(fresh.ctx, reopened, box.workspace);
    server.enqueue(secondTurn());
    expect((await prompt(fresh.ctx, reopened, "Thanks")).stopReason).toBe("end_turn");
  } finally {
    await fresh.close();
  }
  const turn = compact ? 4 : 2;
  expect(server.requests.length).toBe(2 * turn + 2);
  return { neverReloaded, afterReload: server.requests.at(-1)?.body };
}

describe.each(kits)("$kind: request parity through pruning and mid-turn compaction", (kit) => {
  test("after a pruning, the next request after a reopen equals a never-reloaded session's: the stubs, the newest reads whole", async () => {
    const { neverReloaded, afterReload } = await nextRequests(kit, false);
    expect(afterReload).toEqual(neverReloaded);
    const body = JSON.stringify(afterReload);
    expect(body.match(/was pruned to keep the conversation within the context window/g)?.length).toBe(2);
    expect(body.match(/linking: ok; tests: 42 passed/g)?.length).toBeGreaterThanOrEqual(3);
  });

  test("after a mid-turn compaction, the next request after a reopen equals a never-reloaded session's: it starts from the summary", async () => {
    const { neverReloaded, afterReload } = await nextRequests(kit, true);
    expect(afterReload).toEqual(neverReloaded);
    const body = JSON.stringify(afterReload);
    expect(body).toContain("Summary: the build log was read six times");
    expect(body).toContain("go on with it from where the summary leaves off");
    expect(body).not.toContain("call_a");
    expect(body).toContain("Done reading.");
  });
});
