/**
 * Fault injection: run scripted sessions and kill -9 the agent at seeded points (after the client
 * received the k-th update, or after a random delay). A fresh process then loads every killed
 * session: each must load, and every update the client received before the kill must be in the
 * replay (the prefix property).
 */
import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, test } from "bun:test";
import { spawnAgent } from "../../src/client/spawn-agent.ts";
import { ViewClient } from "../../src/client/view-client.ts";
import { type emptyView, fold } from "../../src/view/view-model.ts";
import { connectProcess, load } from "../support/acp-session.ts";
import { seededRandom, suiteSeed } from "../support/seeded.ts";
import { prefixViolations } from "../support/view-prefix.ts";
import { sandbox } from "../support/workspace.ts";

type Scenario = { model: string; prompts: string[] };

const scenarios: Scenario[] = [
  { model: "scripted/demo", prompts: ["Overview", "Notes?"] },
  { model: "scripted/slow", prompts: ["Everything"] },
  { model: "scripted/plan", prompts: ["Plan it"] },
  { model: "scripted/tool", prompts: ["Read", "Again"] },
  { model: "scripted/thinking", prompts: ["One", "Two", "Three"] },
];

const KILL_POINTS = 110;
const seed = suiteSeed(20261130);

type Killed = { sessionId: string; received: ViewModel; point: string };
type ViewModel = ReturnType<typeof emptyView>;

/** Runs one scenario in a fresh agent process and kills it at the chosen point. */
async function runAndKill(
  box: ReturnType<typeof sandbox>,
  scenario: Scenario,
  point: { afterUpdates?: number; afterMs?: number },
): Promise<Killed | undefined> {
  const agent = spawnAgent({ env: { ...box.env, VERBATIM_MODEL: scenario.model } });
  const client = new ViewClient();
  const connection = client.app().connect(agent.stream);
  let sessionId = "";
  let killed = false;
  const kill = () => {
    if (killed) return;
    killed = true;
    agent.kill(9);
  };
  let count = 0;
  client.onUpdate = () => {
    count++;
    if (point.afterUpdates !== undefined && count >= point.afterUpdates) kill();
  };
  try {
    await connection.agent.request(acp.methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
    sessionId = (await connection.agent.request(acp.methods.agent.session.new, { cwd: box.workspace, mcpServers: [] }))
      .sessionId;
    if (point.afterMs !== undefined) setTimeout(kill, point.afterMs);
    for (const text of scenario.prompts) {
      await connection.agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] });
    }
  } catch {
    // The kill cuts the connection: the request in flight fails. That is the point.
  }
  kill();
  await agent.exited;
  connection.close();
  if (!sessionId) return undefined;
  return {
    sessionId,
    received: fold(client.notifications.filter((n) => n.sessionId === sessionId).map((n) => n.update)),
    point: JSON.stringify(point),
  };
}

describe("kill -9 at seeded points", () => {
  test(`every update received before a kill is in the replay (${KILL_POINTS} points, seed ${seed})`, async () => {
    const random = seededRandom(seed);
    const box = sandbox();
    const killed: Killed[] = [];
    const points = new Set<string>();
    for (let i = 0; points.size < KILL_POINTS; i++) {
      const scenario = scenarios[i % scenarios.length]!;
      const point =
        random() < 0.75 ? { afterUpdates: 1 + Math.floor(random() * 60) } : { afterMs: Math.floor(random() * 250) };
      const key = `${scenario.model} ${JSON.stringify(point)}`;
      if (points.has(key)) continue;
      points.add(key);
      const result = await runAndKill(box, scenario, point);
      if (result) killed.push(result);
    }
    // One fresh process loads every killed session.
    const fresh = await connectProcess(box.env);
    const failures: string[] = [];
    let interruptedCards = 0;
    try {
      for (const k of killed) {
        const before = fresh.client.notifications.length;
        await load(fresh.ctx, k.sessionId, box.workspace);
        const replay = fold(fresh.client.notifications.slice(before).map((n) => n.update));
        interruptedCards += Object.values(replay.toolCalls).filter(
          (c) => (c.meta as { verbatim?: { interrupted?: unknown } } | undefined)?.verbatim?.interrupted,
        ).length;
        for (const problem of prefixViolations(k.received, replay))
          failures.push(`${k.point} ${k.sessionId}: ${problem}`);
      }
    } finally {
      await fresh.close();
    }
    process.stderr.write(
      `crash suite (seed ${seed}): ${points.size} distinct kill points, ${killed.length} sessions killed and reloaded, ${interruptedCards} calls marked interrupted, ${failures.length} violations\n`,
    );
    expect(points.size).toBeGreaterThanOrEqual(100);
    expect(failures).toEqual([]);
  }, 180_000);
});
