/**
 * Which models a process offers, from the environment and the config files (environment
 * first), and exactly what to set when nothing usable is configured. Never a silent fallback
 * to the scripted model.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { catalogFromEnv } from "../../src/core/providers/catalog.ts";
import { fixtureServer } from "../support/fixture-server.ts";
import { collect, providerRequest } from "../support/provider-events.ts";
import { anthropicKit } from "../support/provider-kits.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";

function setup(
  env: Record<string, string>,
  userConfig?: unknown,
): { box: Sandbox; catalog: ReturnType<typeof catalogFromEnv> } {
  const box = sandbox();
  if (userConfig !== undefined) writeUserConfig(box, userConfig);
  return { box, catalog: catalogFromEnv({ ...box.env, VERBATIM_MODEL: "", ...env }, box.workspace) };
}

function writeUserConfig(box: Sandbox, config: unknown) {
  mkdirSync(join(box.configHome, "verbatim"), { recursive: true });
  writeFileSync(join(box.configHome, "verbatim", "config.json"), JSON.stringify(config));
}

const refs = (catalog: ReturnType<typeof catalogFromEnv>) =>
  catalog.models().map((m) => `${m.ref.provider}/${m.ref.model}`);

describe("with nothing configured", () => {
  test("there is no default model, no model to choose, and the hint names every way to configure one", () => {
    const { catalog } = setup({});
    expect(catalog.defaultModel()).toBeUndefined();
    expect(catalog.models()).toEqual([]);
    for (const name of [
      "VERBATIM_MODEL",
      "ANTHROPIC_API_KEY",
      "OPENAI_API_KEY",
      "OPENAI_BASE_URL",
      "config.json",
      "scripted/demo",
    ]) {
      expect(catalog.setupHint).toContain(name);
    }
    expect(catalog.setupMethods().map((m) => m.id)).toEqual([
      "config-file",
      "anthropic",
      "openai",
      "openai-compatible",
    ]);
  });

  test("the scripted provider is never offered unless chosen", () => {
    const { catalog } = setup({ ANTHROPIC_API_KEY: "k" });
    expect(refs(catalog).some((r) => r.startsWith("scripted/"))).toBe(false);
    expect(setup({ VERBATIM_MODEL: "scripted/plain" }).catalog.defaultModel()).toEqual({
      provider: "scripted",
      model: "plain",
    });
  });
});

describe("from the environment", () => {
  test("an Anthropic key alone offers the known Anthropic models, the first as default", () => {
    const { catalog } = setup({ ANTHROPIC_API_KEY: "k" });
    expect(catalog.defaultModel()).toEqual({ provider: "anthropic", model: "claude-sonnet-4-6" });
    expect(refs(catalog)).toEqual([
      "anthropic/claude-sonnet-4-6",
      "anthropic/claude-opus-4-7",
      "anthropic/claude-haiku-4-5",
    ]);
    expect(catalog.models()[0]?.name).toBe("Claude Sonnet 4.6 (Anthropic)");
    expect(catalog.setupMethods()).toEqual([]);
  });

  test("VERBATIM_MODEL chooses the model, and a model not in the table is offered too", () => {
    const { catalog } = setup({ OPENAI_API_KEY: "k", VERBATIM_MODEL: "openai/gpt-6.1-sol" });
    expect(catalog.defaultModel()).toEqual({ provider: "openai", model: "gpt-6.1-sol" });
    expect(refs(catalog)).toEqual(["openai/gpt-6.1-sol", "openai/gpt-5.5", "openai/gpt-5.4", "openai/gpt-5.4-mini"]);
  });

  test("VERBATIM_MODEL without the provider's key says exactly which key to set", () => {
    const { catalog } = setup({ VERBATIM_MODEL: "anthropic/claude-opus-4-7" });
    expect(catalog.defaultModel()).toBeUndefined();
    expect(catalog.setupHint).toBe(
      "VERBATIM_MODEL is anthropic/claude-opus-4-7, but no Anthropic API key is set. Set ANTHROPIC_API_KEY.",
    );
  });

  test("a local server needs its URL, not a key", () => {
    const without = setup({ VERBATIM_MODEL: "openai-chat/qwen3:8b" }).catalog;
    expect(without.setupHint).toContain("Set OPENAI_BASE_URL");
    expect(without.setupHint).toContain("http://127.0.0.1:11434/v1");
    const withUrl = setup({
      VERBATIM_MODEL: "openai-chat/qwen3:8b",
      OPENAI_BASE_URL: "http://127.0.0.1:11434/v1",
    }).catalog;
    expect(withUrl.defaultModel()).toEqual({ provider: "openai-chat", model: "qwen3:8b" });
    expect(withUrl.provider({ provider: "openai-chat", model: "qwen3:8b" })?.contextWindow("qwen3:8b")).toBe(32_768);
  });

  test("VERBATIM_MODEL splits on the first slash only (OpenRouter model ids contain one)", () => {
    const { catalog } = setup(
      { VERBATIM_MODEL: "openrouter/anthropic/claude-sonnet-4.6", OPENROUTER_KEY: "k" },
      {
        providers: {
          openrouter: { type: "openai-chat", baseUrl: "https://openrouter.ai/api/v1", apiKeyEnv: "OPENROUTER_KEY" },
        },
      },
    );
    expect(catalog.defaultModel()).toEqual({ provider: "openrouter", model: "anthropic/claude-sonnet-4.6" });
  });

  test("a provider name nobody configured is named, with the ones that exist", () => {
    const { catalog } = setup({ VERBATIM_MODEL: "mistral/large" });
    expect(catalog.setupHint).toBe(
      'VERBATIM_MODEL is mistral/large, but no provider is named "mistral". Known providers: anthropic, openai, openai-chat, scripted.',
    );
  });

  test("a malformed VERBATIM_MODEL says what shape it needs", () => {
    expect(setup({ VERBATIM_MODEL: "claude" }).catalog.setupHint).toContain(
      'VERBATIM_MODEL must be <provider>/<model> (e.g. anthropic/claude-sonnet-4-6), got "claude"',
    );
  });
});

describe("from a config file", () => {
  const ollama = {
    model: "ollama/qwen3:8b",
    providers: {
      ollama: {
        type: "openai-chat",
        baseUrl: "http://127.0.0.1:11434/v1",
        models: { "qwen3:8b": { contextWindow: 40_960 }, "llama3.2": { name: "Llama 3.2" } },
      },
    },
  };

  test("lists the configured models with their names and context windows", () => {
    const { catalog } = setup({}, ollama);
    expect(catalog.defaultModel()).toEqual({ provider: "ollama", model: "qwen3:8b" });
    expect(catalog.models().map((m) => m.name)).toEqual(["qwen3:8b (ollama)", "Llama 3.2 (ollama)"]);
    expect(catalog.provider({ provider: "ollama", model: "qwen3:8b" })?.contextWindow("qwen3:8b")).toBe(40_960);
  });

  test("the environment wins over the file: VERBATIM_MODEL over `model`", () => {
    const { catalog } = setup({ VERBATIM_MODEL: "ollama/llama3.2" }, ollama);
    expect(catalog.defaultModel()).toEqual({ provider: "ollama", model: "llama3.2" });
  });

  test("the environment's key wins over the file's key", async () => {
    const server = fixtureServer();
    server.enqueue({ sse: anthropicKit.text("ok") });
    const { catalog } = setup(
      { ANTHROPIC_API_KEY: "key-from-env", ANTHROPIC_BASE_URL: server.origin },
      { providers: { anthropic: { apiKey: "key-from-file" } } },
    );
    await collect(
      catalog.provider({ provider: "anthropic", model: "claude-sonnet-4-6" })!,
      providerRequest(anthropicKit),
    );
    // This SDK version sends the key as a bearer token.
    expect(server.requests[0]?.headers.authorization).toBe("Bearer key-from-env");
  });

  test("an invalid file configures nothing, and the hint carries the file's error", () => {
    const { box, catalog } = setup({ ANTHROPIC_API_KEY: "k" }, { providers: { anthropic: { key: "x" } } });
    expect(catalog.defaultModel()).toBeUndefined();
    expect(catalog.setupHint).toContain(join(box.configHome, "verbatim", "config.json"));
    expect(catalog.setupHint).toContain('unknown key "key"');
  });

  test("reload reads a file written after start", () => {
    const { box, catalog } = setup({});
    expect(catalog.defaultModel()).toBeUndefined();
    writeUserConfig(box, ollama);
    catalog.reload();
    expect(catalog.defaultModel()).toEqual({ provider: "ollama", model: "qwen3:8b" });
  });
});
