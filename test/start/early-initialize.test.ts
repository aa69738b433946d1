/**
 * The start path answers `initialize` before the ACP SDK and the engine load
 * (src/start/early-initialize.ts). Its answer is the full agent's, byte for byte: each request is
 * sent to the agent twice, once answered early and once with VERBATIM_EARLY_INITIALIZE=off (the
 * full agent answers), for the built bundle and from source, with and without config files. A
 * request the start path does not answer is the full agent's to answer, errors included; and the
 * session goes on normally after an early answer.
 */
import * as acp from "@agentclientprotocol/sdk/unstable";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PROTOCOL_VERSION } from "../../src/acp/capabilities.ts";
import { buildBundle, CHECKOUT } from "../support/build.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";

const SOURCE = join(CHECKOUT, "src", "cli.ts");
let outdir = "";
let bundle = "";

beforeAll(async () => {
  outdir = mkdtempSync(join(tmpdir(), "verbatim-early-"));
  bundle = await buildBundle(join(outdir, "dist"));
}, 60_000);
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

type Spawned = { lines: AsyncGenerator<string>; send(line: string): void; stop(): Promise<void> };

function spawnAgent(entry: string, box: Sandbox, extra: Record<string, string> = {}): Spawned {
  const child = Bun.spawn([process.execPath, entry], {
    cwd: box.workspace,
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, ...box.env, ...extra },
  });
  async function* lines(): AsyncGenerator<string> {
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const chunk of child.stdout) {
      buffer += decoder.decode(chunk, { stream: true });
      for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
        yield buffer.slice(0, nl + 1);
        buffer = buffer.slice(nl + 1);
      }
    }
  }
  return {
    lines: lines(),
    send: (line) => {
      child.stdin.write(`${line}\n`);
      void child.stdin.flush();
    },
    stop: async () => {
      void child.stdin.end();
      await child.exited;
    },
  };
}

/** The first line the agent writes for `first`, exactly as written (its newline included). */
async function firstAnswer(entry: string, box: Sandbox, first: string, extra: Record<string, string> = {}) {
  const agent = spawnAgent(entry, box, extra);
  agent.send(first);
  const { value } = await agent.lines.next();
  await agent.stop();
  return value as string;
}

const initialize = (params: unknown, id: number | string = 0) =>
  JSON.stringify({ jsonrpc: "2.0", id, method: "initialize", params });

/** The requests compared: protocol versions, client capabilities (terminal auth either way), ids. */
const REQUESTS: [string, string][] = [
  ["protocol version 1, no capabilities", initialize({ protocolVersion: 1, clientCapabilities: {} })],
  [
    "a later protocol version, terminal auth, client info, a string id",
    initialize(
      {
        protocolVersion: 2,
        clientCapabilities: {
          fs: { readTextFile: true, writeTextFile: true },
          terminal: true,
          auth: { terminal: true },
        },
        clientInfo: { name: "editor", version: "1.0" },
      },
      "init-1",
    ),
  ],
  [
    "protocol version 0, the older terminal-auth _meta",
    initialize({ protocolVersion: 0, clientCapabilities: { _meta: { "terminal-auth": true } } }),
  ],
  [
    "malformed capabilities (the SDK reads them as absent)",
    initialize({ protocolVersion: 1, clientCapabilities: { auth: { terminal: "yes" }, fs: 3, _meta: [1] } }, 7),
  ],
  ["no clientCapabilities at all", initialize({ protocolVersion: 1 })],
];

/**
 * Configurations (none, a provider chosen in the environment, a user file, a project file, an
 * invalid file), each with whether `initialize` offers the setup methods there.
 */
const CONFIGS: [string, boolean, (box: Sandbox) => void][] = [
  ["no provider configured", true, () => undefined],
  [
    "a provider chosen in the environment",
    false,
    (box) => {
      box.env.VERBATIM_MODEL = "scripted/plain";
    },
  ],
  [
    "a model in the user config file",
    false,
    (box) => {
      mkdirSync(join(box.configHome, "verbatim"), { recursive: true });
      writeFileSync(join(box.configHome, "verbatim", "config.json"), JSON.stringify({ model: "scripted/demo" }));
    },
  ],
  [
    "a model in the project config file",
    false,
    (box) => {
      mkdirSync(join(box.workspace, ".verbatim"));
      writeFileSync(join(box.workspace, ".verbatim", "config.json"), JSON.stringify({ model: "scripted/demo" }));
    },
  ],
  [
    "an invalid user config file",
    true,
    (box) => {
      mkdirSync(join(box.configHome, "verbatim"), { recursive: true });
      writeFileSync(join(box.configHome, "verbatim", "config.json"), JSON.stringify({ model: 5 }));
    },
  ],
];

const OFF = { VERBATIM_EARLY_INITIALIZE: "off" };

test("the protocol version written out is the SDK's", () => {
  expect(PROTOCOL_VERSION).toBe(acp.PROTOCOL_VERSION);
});

for (const [entryName, entry] of [
  ["the built bundle", () => bundle],
  ["source", () => SOURCE],
] as const) {
  describe(`the early initialize answer, ${entryName}`, () => {
    for (const [config, offered, configure] of CONFIGS) {
      test(`is the full agent's, byte for byte, for every request: ${config}`, async () => {
        const box = sandbox("");
        configure(box);
        for (const [, request] of REQUESTS) {
          const early = await firstAnswer(entry(), box, request);
          const full = await firstAnswer(entry(), box, request, OFF);
          expect(early).toBe(full);
          const { result } = JSON.parse(early);
          expect(result.protocolVersion).toBe(PROTOCOL_VERSION);
          expect(result.authMethods.length > 0).toBe(offered);
        }
      }, 60_000);
    }
  });
}

test("a request the start path does not answer is the full agent's to answer, errors included", async () => {
  const box = sandbox("");
  for (const request of [
    initialize({ protocolVersion: -1 }),
    initialize({ protocolVersion: "1" }),
    initialize({ protocolVersion: 70_000 }),
    JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize" }),
    JSON.stringify({ jsonrpc: "2.0", id: 0, method: "session/new", params: { cwd: box.workspace, mcpServers: [] } }),
    "{not json",
  ]) {
    const answer = await firstAnswer(bundle, box, request);
    expect(JSON.parse(answer).error).toBeDefined();
    expect(answer).toBe(await firstAnswer(bundle, box, request, OFF));
  }
}, 60_000);

test("is written before the full agent is loaded: the start bundle answers it without dist/agent.js, then fails to load it", async () => {
  const alone = join(outdir, "start-only");
  mkdirSync(alone);
  for (const file of readdirSync(join(outdir, "dist")).filter((f) => f.startsWith("verbatim.js")))
    copyFileSync(join(outdir, "dist", file), join(alone, file));
  const box = sandbox("scripted/plain");
  const request = initialize({ protocolVersion: 1, clientCapabilities: {} });
  const child = Bun.spawn([process.execPath, join(alone, "verbatim.js")], {
    cwd: box.workspace,
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, ...box.env },
  });
  child.stdin.write(`${request}\n`);
  void child.stdin.end();
  const [answer, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  expect(answer).toBe(await firstAnswer(bundle, box, request, OFF));
  expect(code).not.toBe(0);
  expect(stderr).toContain("agent.js");
}, 30_000);

test("the session goes on normally after an early answer: session/new, then a prompt", async () => {
  const box = sandbox("scripted/plain");
  const agent = spawnAgent(bundle, box);
  const next = async () => JSON.parse((await agent.lines.next()).value as string) as Record<string, unknown>;
  const response = async (id: number) => {
    const seen: Record<string, unknown>[] = [];
    for (;;) {
      const message = await next();
      if (message.id === id && !("method" in message)) return { message, seen };
      seen.push(message);
    }
  };
  agent.send(initialize({ protocolVersion: 1, clientCapabilities: {} }));
  expect((await response(0)).message.result).toBeDefined();
  agent.send(
    JSON.stringify({ jsonrpc: "2.0", id: 1, method: "session/new", params: { cwd: box.workspace, mcpServers: [] } }),
  );
  const created = (await response(1)).message.result as { sessionId: string };
  expect(created.sessionId).toStartWith("ses_");
  agent.send(
    JSON.stringify({
      jsonrpc: "2.0",
      id: 2,
      method: "session/prompt",
      params: { sessionId: created.sessionId, prompt: [{ type: "text", text: "hello" }] },
    }),
  );
  const prompted = await response(2);
  expect(prompted.message.result).toEqual({ stopReason: "end_turn" });
  const kinds = prompted.seen.map((m) => (m.params as { update?: { sessionUpdate?: string } }).update?.sessionUpdate);
  expect(kinds).toContain("user_message_chunk");
  expect(kinds).toContain("agent_message_chunk");
  await agent.stop();
}, 30_000);
