/**
 * The specification an installed verbatim must meet, whichever way it was installed (the npm
 * package's bin, the single-file binary): started as the registry starts it, driven over stdio
 * by the SDK's client. `describeInstalled` declares the tests; `command` is how to start it (read
 * once the suite's `beforeAll` has installed it).
 */
import * as acp from "@agentclientprotocol/sdk";
import type { ClientCapabilities } from "@agentclientprotocol/sdk";
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { comparable } from "../../src/cli/demo.ts";
import { writeUserConfig } from "../../src/cli/setup/user-config.ts";
import { spawnAgent } from "../../src/client/spawn-agent.ts";
import { ViewClient } from "../../src/client/view-client.ts";
import { diffValues } from "../../src/view/view-diff.ts";
import { fixtureServer } from "./fixture-server.ts";
import { shippedMedia } from "./media.ts";
import { anthropicKit, modelRef } from "./provider-kits.ts";
import { inPty } from "./pty.ts";
import { sandbox, type Sandbox } from "./workspace.ts";

/** A sandbox whose environment chooses no model (as an editor that passes no variable). */
function unconfigured(): Sandbox {
  const box = sandbox();
  box.env.VERBATIM_MODEL = "";
  return box;
}

/** Starts the installed agent, initializes it as `capabilities` says, and hands the connection to `use`. */
async function withAgent<T>(
  command: string[],
  box: Sandbox,
  capabilities: ClientCapabilities,
  use: (c: { agent: acp.ClientContext; client: ViewClient; init: acp.InitializeResponse }) => Promise<T>,
): Promise<T> {
  const process = spawnAgent({ command, env: box.env, cwd: box.workspace });
  const client = new ViewClient();
  const connection = client.app().connect(process.stream);
  try {
    const init = await connection.agent.request(acp.methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: capabilities,
    });
    return await use({ agent: connection.agent, client, init });
  } catch (error) {
    throw new Error(`${String(error)}\nagent stderr:\n${process.stderr()}`);
  } finally {
    connection.close();
    process.kill();
    await process.exited;
  }
}

export async function runInstalled(
  command: string[],
  args: string[],
  box: Sandbox,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = Bun.spawn([...command, ...args], {
    env: { ...process.env, ...box.env },
    cwd: box.workspace,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { code, stdout, stderr };
}

export function describeInstalled(name: string, command: () => string[], version: string): void {
  describe(name, () => {
    test("initialize offers the terminal setup only to a client that declares terminal auth", async () => {
      const box = unconfigured();
      const declared = await withAgent(command(), box, { auth: { terminal: true } }, async ({ init }) => init);
      expect(declared.agentInfo?.version).toBe(version);
      expect(declared.authMethods?.[0]).toMatchObject({ type: "terminal", args: ["setup"] });
      const plain = await withAgent(command(), box, {}, async ({ init }) => init.authMethods ?? []);
      expect(plain.length).toBeGreaterThan(0);
      expect(plain.filter((m) => "type" in m && m.type === "terminal")).toEqual([]);
    });

    test("`setup` typed in a terminal checks the server through its SDK and saves the choice; session/new then needs no variable", async () => {
      const server = fixtureServer();
      server.enqueue({ status: 200, json: { object: "list", data: [{ id: "qwen3", object: "model" }] } });
      const box = unconfigured();
      const pty = inPty([...command(), "setup"], box.env, box.workspace);
      await pty.expect("Choose a number");
      pty.type("3");
      await pty.expect("OpenAI-compatible URL");
      pty.type(`${server.origin}/v1`);
      await pty.expect("Choose a number");
      pty.type("1");
      await pty.expect("Model [qwen3]");
      pty.type("");
      expect(await pty.exited).toBe(0);
      expect(server.requests.map((r) => r.path)).toEqual(["/v1/models"]);
      const session = await withAgent(command(), box, {}, async ({ agent }) =>
        agent.request(acp.methods.agent.session.new, { cwd: box.workspace, mcpServers: [] }),
      );
      const model = session.configOptions?.find((o) => o.id === "model");
      expect(model && "currentValue" in model ? model.currentValue : undefined).toBe("openai-compatible/qwen3");
    });

    test("with the config the setup writes: session/new, a scripted prompt, and session/load in a fresh process show the same view", async () => {
      const box = unconfigured();
      writeUserConfig(join(box.configHome, "verbatim", "config.json"), { model: "scripted/demo" });
      const live = await withAgent(command(), box, {}, async ({ agent, client }) => {
        const { sessionId } = await agent.request(acp.methods.agent.session.new, {
          cwd: box.workspace,
          mcpServers: [],
        });
        const { stopReason } = await agent.request(acp.methods.agent.session.prompt, {
          sessionId,
          prompt: [{ type: "text", text: "Hello" }],
        });
        expect(stopReason).toBe("end_turn");
        return { sessionId, view: client.view(sessionId) };
      });
      expect(live.view.timeline.length).toBeGreaterThan(1);
      const reloaded = await withAgent(command(), box, {}, async ({ agent, client }) => {
        await agent.request(acp.methods.agent.session.load, {
          sessionId: live.sessionId,
          cwd: box.workspace,
          mcpServers: [],
        });
        return client.view(live.sessionId);
      });
      expect(diffValues(comparable(live.view), comparable(reloaded))).toEqual([]);

      const listed = await runInstalled(command(), ["sessions", "--json", "--cwd", box.workspace], box);
      expect(listed.code).toBe(0);
      expect(listed.stdout).toContain(live.sessionId);
    });

    test("reads images and PDFs with the libraries it ships (loaded when first needed)", async () => {
      const server = fixtureServer();
      const box = sandbox(modelRef(anthropicKit));
      Object.assign(box.env, anthropicKit.env(server));
      const files = await shippedMedia(box.workspace);
      server.enqueue(
        {
          sse: anthropicKit.calls(
            files.map((f, i) => ({
              id: `call_${i}`,
              name: "Read",
              input: { file_path: f.path, ...(f.pages ? { pages: f.pages } : {}) },
            })),
          ),
        },
        { sse: anthropicKit.text("Seen.") },
      );
      await withAgent(command(), box, {}, async ({ agent }) => {
        const { sessionId } = await agent.request(acp.methods.agent.session.new, {
          cwd: box.workspace,
          mcpServers: [],
        });
        await agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "Look" }] });
      });
      const sent = JSON.stringify(server.requests[1]?.body);
      for (const file of files) expect(sent).toContain(file.expect);
    }, 60_000);

    test("judges each part of a compound command with the shell parser it ships: one denied part refuses it", async () => {
      const box = sandbox("scripted/call");
      mkdirSync(join(box.userHome, ".claude"), { recursive: true });
      writeFileSync(
        join(box.userHome, ".claude", "settings.json"),
        JSON.stringify({ permissions: { allow: ["Bash(echo:*)"], deny: ["Bash(rm:*)"] } }),
      );
      const card = await withAgent(command(), box, {}, async ({ agent, client }) => {
        const { sessionId } = await agent.request(acp.methods.agent.session.new, {
          cwd: box.workspace,
          mcpServers: [],
        });
        await agent.request(acp.methods.agent.session.prompt, {
          sessionId,
          prompt: [{ type: "text", text: `Bash ${JSON.stringify({ command: "echo a && (rm -rf README.md)" })}` }],
        });
        return JSON.stringify(Object.values(client.view(sessionId).toolCalls));
      });
      expect(card).toContain("Refused by rule Bash(rm:*)");
      expect(existsSync(join(box.workspace, "README.md"))).toBe(true);
    });

    test("--version prints package.json's version", async () => {
      const run = await runInstalled(command(), ["--version"], unconfigured());
      expect({ code: run.code, stdout: run.stdout.trim() }).toEqual({ code: 0, stdout: version });
    });
  });
}
