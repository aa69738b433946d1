/**
 * A load that arrives before the engine has loaded is answered from what replay needs
 * (src/acp/replay-first.ts), and that is all it evaluates: beyond the modules answering
 * `initialize` already loaded (the wire, the SDK, the config and model catalog it offers setup
 * from), what it reaches at runtime holds none of the engine's tools, providers, hooks, MCP,
 * turns, permissions or vendored SDKs. Checked on the import graph of the sources (what the
 * bundle evaluates follows it: a dynamic import is evaluated when called, and the load calls none).
 */
import { expect, test } from "bun:test";
import { importGraph } from "../support/import-graph.ts";

const graph = importGraph();

/** What evaluating `from` evaluates (its static imports, through), `from` included. */
function reached(...from: string[]): Set<string> {
  const seen = new Set<string>(from);
  const queue = [...from];
  while (queue.length > 0) {
    for (const next of graph.static.get(queue.pop()!) ?? []) {
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push(next);
    }
  }
  return seen;
}

/** The engine's parts a load served before it must not reach. */
const ENGINE =
  /^src\/(core\/(tools|providers|hooks|mcp|turn|permissions|jobs|subagents|compaction|instructions|commands)\/|lazy-sdks\/|core\/engine-deps\.ts$|core\/session\/session-runtime\.ts$|acp\/lazy-handlers\.ts$)/;

/** What answering `initialize` loads: the stdio server and the app (the SDK), and what its handler imports. */
const atInitialize = reached(
  "src/cli/agent-entry.ts",
  "src/acp/stdio.ts",
  "src/core/providers/catalog.ts",
  "src/core/hooks/trust.ts",
);

test("the graph is read: answering initialize reaches the app, and the engine's handlers reach its tools", () => {
  expect(atInitialize.has("src/acp/agent-app.ts")).toBe(true);
  expect([...reached("src/acp/lazy-handlers.ts")].filter((m) => ENGINE.test(m)).length).toBeGreaterThan(50);
});

test("a load served before the engine reaches none of the engine beyond what initialize loaded", () => {
  const added = [...reached("src/acp/replay-first.ts")].filter((m) => !atInitialize.has(m));
  expect(added.length).toBeGreaterThan(20);
  expect(added.filter((m) => ENGINE.test(m))).toEqual([]);
});

test("nothing the agent evaluates, engine included, imports node:crypto (it loads Node's stream modules: milliseconds on every cold start)", () => {
  const agent = reached(
    "src/cli/agent-entry.ts",
    "src/acp/stdio.ts",
    "src/acp/lazy-handlers.ts",
    "src/acp/replay-first.ts",
  );
  expect(agent.size).toBeGreaterThan(200);
  const crypto = [...agent].filter((m) =>
    [...(graph.packages.get(m) ?? [])].some((p) => p === "node:crypto" || p === "crypto"),
  );
  expect(crypto).toEqual([]);
});
