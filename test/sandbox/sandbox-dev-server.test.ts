/**
 * A dev server in a background job, with the sandbox on (Linux): started in the sandbox it lives
 * in its command's own network namespace, so the model's next command cannot reach it; listed in
 * `sandbox.excludedCommands` it runs outside (asked, as any unconfined command), the user's
 * browser reaches it, and so does a later sandboxed command, through the sandbox's proxy once
 * `127.0.0.1` is an allowed host. docs/security.md says the same for users.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { choose } from "../../src/client/view-client.ts";
import { connectProcess, newSession, prompt, until } from "../support/acp-session.ts";
import { textOf } from "../support/cards.ts";
import { exportedFacts, ofKind } from "../support/exported-facts.ts";
import { sandboxedBox, sandboxTestsSkipped } from "../support/sandbox-env.ts";
import type { Sandbox } from "../support/workspace.ts";
import { cards } from "../parity/harness.ts";

const skipped = await sandboxTestsSkipped("test/sandbox/sandbox-dev-server.test.ts");

const call = (input: Record<string, unknown>) => `Bash ${JSON.stringify(input)}`;

/** The server: a loopback HTTP server in the runtime the tests run on, printing its port. */
const SERVER_FILE = `const s = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("hello from the dev server") }); console.log("listening on " + s.port);`;
const server = `${process.execPath} run server.ts`;
/** A later command's request: through the sandbox's proxy (loopback is otherwise sent past it). */
const client = (port: string) =>
  `NO_PROXY= no_proxy= ${process.execPath} -e 'try { const r = await fetch("http://127.0.0.1:${port}/"); console.log(r.status, await r.text()) } catch (e) { console.log("unreachable:", e.code ?? e.message) }'`;

/** Starts the server as a background job, asks for it with a later command; returns that command's result and the port. */
async function serverThenClient(box: Sandbox) {
  writeFileSync(join(box.workspace, "server.ts"), SERVER_FILE);
  const live = await connectProcess(box.env, { policy: choose("allow_once") });
  try {
    const { sessionId } = await newSession(live.ctx, box.workspace);
    await prompt(live.ctx, sessionId, call({ command: server, run_in_background: true }));
    await until(() => /listening on \d+/.test(textOf(cards(live.client.view(sessionId))[0]?.content)), "the server");
    const port = /listening on (\d+)/.exec(textOf(cards(live.client.view(sessionId))[0]?.content))![1]!;
    await prompt(live.ctx, sessionId, call({ command: client(port) }));
    const fromBrowser = await fetch(`http://127.0.0.1:${port}/`).then(
      (r) => r.text(),
      () => "unreachable",
    );
    const facts = await exportedFacts(box.env, sessionId);
    return { facts, fromBrowser, result: ofKind(facts, "tool_call_finished").at(-1)?.result.text ?? "" };
  } finally {
    await live.close();
  }
}

describe.skipIf(skipped !== undefined)("a dev server in a background job, with the sandbox on", () => {
  test("started in the sandbox, it is reachable neither from the model's next command nor from the user's browser", async () => {
    const box = sandboxedBox("scripted/call");
    const { facts, fromBrowser, result } = await serverThenClient(box);
    expect(ofKind(facts, "command_sandboxed")).toHaveLength(2);
    expect(result).not.toContain("hello from the dev server");
    expect(fromBrowser).toBe("unreachable");
  });

  test("listed in sandbox.excludedCommands, it runs outside: the browser reaches it, and a later sandboxed command through the proxy", async () => {
    const box = sandboxedBox("scripted/call");
    mkdirSync(join(box.userHome, ".claude"), { recursive: true });
    writeFileSync(
      join(box.userHome, ".claude", "settings.json"),
      JSON.stringify({ sandbox: { excludedCommands: [server], network: { allowedDomains: ["127.0.0.1"] } } }),
    );
    const { facts, fromBrowser, result } = await serverThenClient(box);
    // The server was asked about (it runs unconfined); the client ran confined, unasked.
    expect(ofKind(facts, "permission_requested")).toHaveLength(1);
    expect(ofKind(facts, "command_sandboxed")).toHaveLength(1);
    expect(fromBrowser).toBe("hello from the dev server");
    expect(result).toContain("200 hello from the dev server");
  });
});
