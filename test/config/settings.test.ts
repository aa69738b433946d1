/** The config files: strict, with errors that name the file, the key and what was expected; project over user. */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadSettings, settingsFiles, type SettingsFiles } from "../../src/core/config/settings.ts";
import { sandbox } from "../support/workspace.ts";

function files(user?: unknown, project?: unknown): SettingsFiles {
  const box = sandbox();
  const f = settingsFiles({ XDG_CONFIG_HOME: box.configHome }, box.workspace);
  const write = (path: string, content: unknown) => {
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
  };
  if (user !== undefined) write(f.user, user);
  if (project !== undefined) write(f.project, project);
  return f;
}

const errorOf = (f: SettingsFiles) => {
  const loaded = loadSettings(f);
  if (loaded.ok) throw new Error("expected the settings to be rejected");
  return loaded.error;
};

describe("config files", () => {
  test("live at $XDG_CONFIG_HOME/verbatim/config.json and <project>/.verbatim/config.json", () => {
    expect(settingsFiles({ XDG_CONFIG_HOME: "/cfg" }, "/proj")).toEqual({
      user: "/cfg/verbatim/config.json",
      project: "/proj/.verbatim/config.json",
    });
    expect(settingsFiles({ HOME: "/home/u" }, "/proj").user).toBe("/home/u/.config/verbatim/config.json");
  });

  test("no files is empty settings", () => {
    expect(loadSettings(files())).toEqual({ ok: true, settings: {}, files: [], warnings: [] });
  });

  test("a full provider list is accepted", () => {
    const f = files({
      model: "ollama/qwen3:8b",
      providers: {
        anthropic: { apiKeyEnv: "MY_ANTHROPIC_KEY", models: { "claude-sonnet-4-6": {} } },
        ollama: {
          type: "openai-chat",
          baseUrl: "http://127.0.0.1:11434/v1",
          models: { "qwen3:8b": { contextWindow: 40960, thinking: "effort" } },
        },
      },
    });
    const loaded = loadSettings(f);
    expect(loaded).toMatchObject({ ok: true, files: [f.user] });
  });

  test("an unknown key names the file, the key path and the keys allowed there", () => {
    const f = files({ providers: { ollama: { type: "openai-chat", baseURL: "http://127.0.0.1:11434/v1" } } });
    const error = errorOf(f);
    expect(error).toContain(f.user);
    expect(error).toContain('providers.ollama: unknown key "baseURL"');
    expect(error).toContain("allowed here: type, baseUrl, apiKey, apiKeyEnv, headers, models");
  });

  test("a value of the wrong shape says what was expected", () => {
    const error = errorOf(
      files({
        providers: {
          ollama: { type: "openai-chat", baseUrl: "localhost:11434", models: { m: { contextWindow: "big" } } },
        },
      }),
    );
    expect(error).toContain('providers.ollama.baseUrl: expected an http(s) URL such as "http://127.0.0.1:11434/v1"');
    expect(error).toContain(
      "providers.ollama.models.m.contextWindow: expected the context window in tokens (a whole number)",
    );
  });

  test("a provider whose name is not a wire protocol must say which one it speaks", () => {
    const f = files({ providers: { ollama: { baseUrl: "http://127.0.0.1:11434/v1" } } });
    expect(errorOf(f)).toStartWith(f.user);
    expect(errorOf(f)).toContain(
      'providers.ollama.type: a provider named "ollama" needs "type": one of "anthropic", "openai", "openai-chat"',
    );
  });

  test("a thinking style that does not apply to the provider's kind is an error", () => {
    expect(errorOf(files({ providers: { anthropic: { models: { "claude-x": { thinking: "effort" } } } } }))).toContain(
      'providers.anthropic.models.claude-x.thinking: "effort" does not apply to anthropic models',
    );
  });

  test("malformed JSON names the file", () => {
    const f = files(undefined, "{ not json");
    expect(errorOf(f)).toStartWith(`${f.project}: is not valid JSON`);
  });

  test("the project file wins over the user file, key by key", () => {
    const f = files(
      {
        model: "anthropic/claude-sonnet-4-6",
        providers: { ollama: { type: "openai-chat", baseUrl: "http://127.0.0.1:11434/v1", models: { a: {} } } },
      },
      { model: "ollama/a", providers: { ollama: { models: { b: { contextWindow: 8192 } } } } },
    );
    const loaded = loadSettings(f);
    expect(loaded).toMatchObject({
      ok: true,
      files: [f.user, f.project],
      settings: {
        model: "ollama/a",
        providers: {
          ollama: {
            type: "openai-chat",
            baseUrl: "http://127.0.0.1:11434/v1",
            models: { a: {}, b: { contextWindow: 8192 } },
          },
        },
      },
    });
  });
});
