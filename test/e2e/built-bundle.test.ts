/**
 * The built bundle keeps the provider SDKs and the MCP SDK out of itself, each in its own bundle
 * under `vendor/`, loaded when first needed. Built away from the checkout (no node_modules to
 * fall back on), it streams through every provider adapter and starts MCP servers.
 */
import * as acp from "@agentclientprotocol/sdk";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnAgent, type AgentProcess } from "../../src/client/spawn-agent.ts";
import { ViewClient } from "../../src/client/view-client.ts";
import { cards, texts } from "../parity/harness.ts";
import { buildBundleSaying } from "../support/build.ts";
import { fixtureServer } from "../support/fixture-server.ts";
import { stdioServer } from "../support/mcp/configs.ts";
import { kits, modelRef } from "../support/provider-kits.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";

let outdir = "";
let bundle = "";
let buildSaid = "";

beforeAll(async () => {
  outdir = mkdtempSync(join(tmpdir(), "verbatim-bundle-test-"));
  ({ bundle, stdout: buildSaid } = await buildBundleSaying(join(outdir, "dist")));
});
afterAll(() => {
  if (outdir) rmSync(outdir, { recursive: true, force: true });
});

/** Runs one prompt on the bundle in a new session and returns the client's view of it. */
async function promptBundle(box: Sandbox, env: Record<string, string>, text: string, mcpServers: acp.McpServer[] = []) {
  const agent: AgentProcess = spawnAgent({ command: [process.execPath, bundle], env: { ...box.env, ...env } });
  const client = new ViewClient();
  const connection = client.app().connect(agent.stream);
  try {
    await connection.agent.request(acp.methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: {},
    });
    const { sessionId } = await connection.agent.request(acp.methods.agent.session.new, {
      cwd: box.workspace,
      mcpServers,
    });
    const { stopReason } = await connection.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text }],
    });
    return { stopReason, view: client.view(sessionId), stderr: agent.stderr() };
  } finally {
    connection.close();
    agent.kill();
    await agent.exited;
  }
}

test("the build says what it built, and how to run it", () => {
  expect(buildSaid).toContain(`built ${join(outdir, "dist", "verbatim.js")}`);
  for (const name of ["anthropic-sdk.js", "openai-sdk.js", "mcp-sdk.js"])
    expect(buildSaid).toContain(join(outdir, "dist", "vendor", name));
  expect(buildSaid).toContain(`${join(outdir, "dist", "verbatim.js")} --help`);
});

describe("the built bundle", () => {
  test("holds none of the SDKs: each is a bundle of its own under vendor/, loaded from there", async () => {
    const text = (name: string) => Bun.file(join(outdir, "dist", name)).text();
    // The start bundle, and the one it loads: the agent past initialize, and the subcommands.
    const [start, main] = await Promise.all(["verbatim.js", "agent.js"].map(text));
    // Strings only each SDK's own code holds: its request headers, its error messages.
    const marks = {
      "anthropic-sdk.js": "anthropic-version",
      "openai-sdk.js": "OpenAI-Organization",
      "mcp-sdk.js": "MCP error",
    };
    for (const [name, mark] of Object.entries(marks)) {
      expect(main).toContain(`./vendor/${name}`);
      for (const bundle of [start, main]) expect(bundle).not.toContain(mark);
      expect(await text(`vendor/${name}`)).toContain(mark);
    }
  });

  for (const kit of kits) {
    test(`streams an answer through the ${kit.kind} adapter`, async () => {
      const server = fixtureServer();
      server.enqueue({ sse: kit.text("Hello from the bundle.") });
      const box = sandbox(modelRef(kit));
      const run = await promptBundle(box, kit.env(server), "Hi");
      expect(run.stopReason).toBe("end_turn");
      expect(texts(run.view, "agent")).toEqual(["Hello from the bundle."]);
      expect(server.requests.map((r) => r.path)).toEqual([kit.path]);
    });
  }

  test("starts an MCP server and runs its tool", async () => {
    const box = sandbox("scripted/call");
    const run = await promptBundle(box, {}, 'mcp__tests__echo {"text":"from the bundle"}', [stdioServer("tests")]);
    expect(run.stopReason).toBe("end_turn");
    expect(cards(run.view)[0]).toMatchObject({ name: "mcp__tests__echo", status: "completed" });
    expect(texts(run.view, "agent").at(-1)).toBe("The tool answered: echo: from the bundle");
  });
});
