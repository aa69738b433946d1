/**
 * `verbatim setup` in a terminal: the answers typed at its prompts become the user config file
 * (private, the key in it only when the user typed it there), the provider is checked with a
 * models request first, and the next `session/new` works with no variable from the editor.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { agentCommand } from "../../src/client/spawn-agent.ts";
import { connectProcess, newSession } from "../support/acp-session.ts";
import { fixtureServer } from "../support/fixture-server.ts";
import { inPty } from "../support/pty.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";

/** A sandbox whose environment chooses no model: only the config file the setup writes can. */
function unconfigured(): Sandbox {
  const box = sandbox();
  box.env.VERBATIM_MODEL = "";
  return box;
}

const configFile = (box: Sandbox) => join(box.configHome, "verbatim", "config.json");
const configOf = (box: Sandbox) => JSON.parse(readFileSync(configFile(box), "utf8")) as Record<string, unknown>;
const modelsAnswer = (...ids: string[]) => ({
  status: 200,
  json: { object: "list", data: ids.map((id) => ({ id, object: "model" })) },
});

/** The model the next `session/new` starts with, in a fresh agent process. */
async function nextSessionModel(box: Sandbox): Promise<string | undefined> {
  const c = await connectProcess(box.env);
  try {
    const session = await newSession(c.ctx, box.workspace);
    const model = session.configOptions?.find((o) => o.id === "model");
    return model && "currentValue" in model ? String(model.currentValue) : undefined;
  } finally {
    await c.close();
  }
}

describe("verbatim setup", () => {
  test("an OpenAI-compatible server with a typed key: checked, saved 0600 with the key, and session/new then works", async () => {
    const server = fixtureServer();
    server.enqueue(modelsAnswer("qwen3", "llama4"));
    const box = unconfigured();
    const pty = inPty([...agentCommand(), "setup"], box.env);
    await pty.expect("Choose a number");
    pty.type("3");
    await pty.expect("OpenAI-compatible URL");
    pty.type(`${server.origin}/v1`);
    await pty.expect("Choose a number");
    pty.type("2");
    await pty.expect("API key (not shown as you type)");
    pty.type("sk-local-secret");
    await pty.expect("Model [qwen3]");
    pty.type("");
    expect(await pty.exited).toBe(0);

    expect(pty.output()).not.toContain("sk-local-secret");
    expect(server.requests.map((r) => [r.method, r.path, r.headers.authorization])).toEqual([
      ["GET", "/v1/models", "Bearer sk-local-secret"],
    ]);
    expect(statSync(configFile(box)).mode & 0o777).toBe(0o600);
    expect(configOf(box)).toEqual({
      model: "openai-compatible/qwen3",
      providers: {
        "openai-compatible": { type: "openai-chat", baseUrl: `${server.origin}/v1`, apiKey: "sk-local-secret" },
      },
    });
    expect(await nextSessionModel(box)).toBe("openai-compatible/qwen3");
  });

  test("Anthropic with the key in a named environment variable: the file names the variable, never holds the key", async () => {
    const server = fixtureServer();
    server.enqueue(modelsAnswer("claude-sonnet-4-6"));
    const box = unconfigured();
    const env = { ...box.env, ANTHROPIC_BASE_URL: server.origin, MY_CLAUDE_KEY: "sk-ant-from-env" };
    const pty = inPty([...agentCommand(), "setup"], env);
    await pty.expect("Choose a number");
    pty.type("1");
    await pty.expect("How does verbatim get the API key?");
    await pty.expect("Choose a number");
    pty.type("2");
    await pty.expect("Environment variable [ANTHROPIC_API_KEY]");
    pty.type("MY_CLAUDE_KEY");
    await pty.expect("Model [claude-sonnet-4-6]");
    pty.type("");
    expect(await pty.exited).toBe(0);

    // The key went with the models request (in whichever header the SDK sends it).
    expect(Object.values(server.requests[0]?.headers ?? {}).some((v) => v.includes("sk-ant-from-env"))).toBe(true);
    expect(readFileSync(configFile(box), "utf8")).not.toContain("sk-ant-from-env");
    expect(configOf(box)).toEqual({
      model: "anthropic/claude-sonnet-4-6",
      providers: { anthropic: { baseUrl: server.origin, apiKeyEnv: "MY_CLAUDE_KEY" } },
    });
  });

  test("a server that cannot be reached is said so, and declining to save leaves no file and exits 1", async () => {
    const closed = fixtureServer();
    const url = `${closed.origin}/v1`;
    closed.stop();
    const box = unconfigured();
    const pty = inPty([...agentCommand(), "setup"], box.env);
    await pty.expect("Choose a number");
    pty.type("3");
    await pty.expect("OpenAI-compatible URL");
    pty.type(url);
    await pty.expect("Choose a number");
    pty.type("1");
    await pty.expect(`could not reach ${url}/models`);
    await pty.expect("Save these settings anyway?");
    pty.type("n");
    expect(await pty.exited).toBe(1);
    expect(existsSync(configFile(box))).toBe(false);
  });

  test("a key the server refuses is said so before anything is saved", async () => {
    const server = fixtureServer();
    server.enqueue({
      status: 401,
      json: { error: { message: "Incorrect API key provided", type: "invalid_request_error" } },
    });
    const box = unconfigured();
    const pty = inPty([...agentCommand(), "setup"], box.env);
    await pty.expect("Choose a number");
    pty.type("3");
    await pty.expect("OpenAI-compatible URL");
    pty.type(`${server.origin}/v1`);
    await pty.expect("Choose a number");
    pty.type("2");
    await pty.expect("API key");
    pty.type("sk-wrong");
    await pty.expect(`${server.origin}/v1/models refused the key (HTTP 401)`);
    await pty.expect("Save these settings anyway?");
    pty.type("");
    expect(await pty.exited).toBe(1);
    expect(existsSync(configFile(box))).toBe(false);
  });

  test("the offline scripted model, with `setup` appended to the agent's usual arguments, keeps what the file already said", async () => {
    const box = unconfigured();
    await Bun.write(configFile(box), JSON.stringify({ defaultMode: "plan" }));
    const pty = inPty([...agentCommand(), "--trust", "setup"], box.env);
    await pty.expect("Choose a number");
    pty.type("4");
    expect(await pty.exited).toBe(0);
    expect(configOf(box)).toEqual({ defaultMode: "plan", model: "scripted/demo" });
    expect(await nextSessionModel(box)).toBe("scripted/demo");
  });
});
