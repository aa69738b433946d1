/**
 * What a command's front matter asks for when it begins to act, decided against the workspace's
 * trust and the models this process lists (commands/activation.ts, config/model-alias.ts).
 */
import { describe, expect, test } from "bun:test";
import { activationOf } from "../../src/core/commands/activation.ts";
import type { UserCommand } from "../../src/core/commands/command-files.ts";
import { namedModel } from "../../src/core/config/model-alias.ts";

const sonnet = { provider: "anthropic", model: "claude-sonnet-4-6" };
const models = [
  { ref: sonnet, name: "Sonnet" },
  { ref: { provider: "anthropic", model: "claude-haiku-4-5" }, name: "Haiku" },
  { ref: { provider: "openai", model: "gpt-5.5" }, name: "GPT" },
];
const place = (trusted: boolean) => ({ turnId: "turn_1", trusted, model: sonnet, models });

const skill = (over: Partial<UserCommand>): UserCommand => ({
  name: "guard",
  description: "Guard",
  body: "Guarded.",
  path: "/w/.claude/skills/guard/SKILL.md",
  sha256: "0",
  scope: "project",
  kind: "skill",
  modelInvocable: true,
  userInvocable: true,
  ...over,
});

describe("a command beginning to act", () => {
  test("a project skill's allowed-tools and hooks are withheld in a workspace not trusted; its disallowed-tools hold", () => {
    const fact = activationOf(
      skill({ allowedTools: ["Bash(git:*)"], disallowedTools: ["Write"], hooks: { Stop: [] } }),
      place(false),
    );
    expect(fact?.allow).toEqual([]);
    expect(fact?.deny).toEqual(["Write"]);
    expect(fact?.hooks).toBeUndefined();
    expect(fact?.withheld).toEqual([
      "its allowed-tools (Bash(git:*)) act only in a trusted workspace (verbatim trust)",
      "its hooks run only in a trusted workspace (verbatim trust)",
    ]);
  });

  test("in a trusted workspace they act", () => {
    const fact = activationOf(skill({ allowedTools: ["Bash(git:*)"], hooks: { Stop: [] } }), place(true));
    expect(fact?.allow).toEqual(["Bash(git:*)"]);
    expect(fact?.hooks).toEqual({ Stop: [] });
    expect(fact?.withheld).toBeUndefined();
  });

  test("a model or effort verbatim cannot use is named, and the session's is kept", () => {
    const fact = activationOf(skill({ model: "gemini", effort: "extreme" }), place(true));
    expect(fact?.model).toBeUndefined();
    expect(fact?.effort).toBeUndefined();
    expect(fact?.withheld).toEqual([
      'its model "gemini" is not one this verbatim lists; anthropic/claude-sonnet-4-6 is used',
      'its effort "extreme" is not low, medium, high or max; the session\'s is used',
    ]);
  });

  test("a shell other than bash leaves its inlines as written, and says so", () => {
    const fact = activationOf(skill({ shell: "powershell", body: "Now: !`Get-Date`" }), place(true));
    expect(fact?.withheld).toEqual([
      'its shell "powershell" is not one verbatim runs (only bash): its !`cmd` inlines stay as written',
    ]);
  });

  test("a command that changes nothing in its turn records nothing", () => {
    expect(activationOf(skill({ model: "inherit", effort: undefined }), place(true))).toBeUndefined();
  });
});

describe("the model a front matter names", () => {
  test("an alias is the first listed model of the session's provider that holds it", () => {
    expect(namedModel("haiku", sonnet, models)).toEqual({
      state: "ok",
      ref: { provider: "anthropic", model: "claude-haiku-4-5" },
    });
  });

  test("a full id, a provider/model, inherit and an unknown name", () => {
    expect(namedModel("gpt-5.5", sonnet, models)).toEqual({
      state: "ok",
      ref: { provider: "openai", model: "gpt-5.5" },
    });
    expect(namedModel("openai/gpt-5.5-mini", sonnet, models)).toEqual({
      state: "ok",
      ref: { provider: "openai", model: "gpt-5.5-mini" },
    });
    expect(namedModel("inherit", sonnet, models)).toEqual({ state: "inherit" });
    expect(namedModel(undefined, sonnet, models)).toEqual({ state: "inherit" });
    expect(namedModel("gemini", sonnet, models)).toEqual({ state: "unknown", name: "gemini" });
  });
});
