/**
 * The model's commands get a scrubbed environment: with provider keys, a configured key variable
 * and an MCP secret in verbatim's environment, `env` through Bash journals none of them (the
 * journal holds what the model was told and what the card showed).
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { choose } from "../../src/client/view-client.ts";
import { connectProcess, newSession, prompt } from "../support/acp-session.ts";
import { ClientServices } from "../support/client-services.ts";
import { dumpDatabase } from "../support/db-dump.ts";
import { initializedRawAgent } from "../support/raw-client.ts";
import { sandbox } from "../support/workspace.ts";

const CANARIES = {
  ANTHROPIC_API_KEY: "sk-ant-canary-0001-anthropic",
  OPENAI_API_KEY: "sk-canary-0002-openai",
  // Named by the user's config file as a provider's apiKeyEnv.
  MY_PROXY_KEY: "canary-0003-configured-key",
  // The same value is an MCP server's env secret.
  SOME_TOKEN: "canary-0004-mcp-secret",
  // A header value of a configured provider, under an unrelated name.
  PROXY_HEADER_COPY: "canary-0005-header-secret",
};

describe("the environment of the model's commands", () => {
  test("env through Bash journals no provider key, configured key variable or MCP secret", async () => {
    const box = sandbox("scripted/command");
    mkdirSync(join(box.configHome, "verbatim"), { recursive: true });
    writeFileSync(
      join(box.configHome, "verbatim", "config.json"),
      JSON.stringify({
        providers: {
          proxy: {
            type: "openai-chat",
            baseUrl: "http://127.0.0.1:9/v1",
            apiKeyEnv: "MY_PROXY_KEY",
            headers: { "x-secret": CANARIES.PROXY_HEADER_COPY },
          },
        },
      }),
    );
    const agent = await initializedRawAgent({ ...box.env, ...CANARIES, VISIBLE_CANARY: "plain-value-still-there" });
    try {
      const mcpServers = [
        {
          name: "absent",
          command: join(box.root, "no-such-server"),
          args: [],
          env: [{ name: "SERVER_TOKEN", value: CANARIES.SOME_TOKEN }],
        },
      ];
      const created = await agent.request("session/new", { cwd: box.workspace, mcpServers });
      const { sessionId } = created.result as { sessionId: string };
      await agent.request("session/set_mode", { sessionId, modeId: "bypassPermissions" });
      const turn = await agent.request(
        "session/prompt",
        { sessionId, prompt: [{ type: "text", text: "env" }] },
        "turn",
      );
      expect(turn.result).toEqual({ stopReason: "end_turn" });
    } finally {
      await agent.close();
    }
    const journal = JSON.stringify(dumpDatabase(join(box.home, "journal.db")));
    // The command ran and its output is journaled: a variable that is no secret is there.
    expect(journal).toContain("VISIBLE_CANARY=plain-value-still-there");
    expect(journal).toContain("PAGER=cat");
    for (const [name, value] of Object.entries(CANARIES)) {
      expect({ name, found: journal.includes(value) }).toEqual({ name, found: false });
    }
  });

  test("in the client's terminal, verbatim's key variables are unset before the command runs", async () => {
    const box = sandbox("scripted/command");
    const key = "sk-ant-canary-0006-client-terminal";
    // The client has the key in its own environment, as an editor started from a shell might.
    const services = new ClientServices({ terminal: true, terminalEnv: { ANTHROPIC_API_KEY: key } });
    const c = await connectProcess({ ...box.env, ANTHROPIC_API_KEY: key }, { services, policy: choose("allow_once") });
    try {
      const { sessionId } = await newSession(c.ctx, box.workspace);
      await prompt(c.ctx, sessionId, "env");
    } finally {
      await c.close();
    }
    expect(services.calls).toContain("terminal/create");
    const journal = JSON.stringify(dumpDatabase(join(box.home, "journal.db")));
    expect(journal).toContain("PATH=");
    expect(journal.includes(key)).toBe(false);
  });
});
