/** The permission policy: modes, saved rules and hook verdicts decide run, refuse or ask. */
import { describe, expect, test } from "bun:test";
import { decide } from "../../src/core/permissions/decide.ts";
import { bashTool } from "../../src/core/tools/bash.ts";
import { editTool } from "../../src/core/tools/edit.ts";
import { readTool } from "../../src/core/tools/read.ts";
import type { Tool } from "../../src/core/tools/tool.ts";
import { webFetchTool } from "../../src/core/tools/web-fetch.ts";
import type { PermissionRule } from "../../src/journal/facts/index.ts";

const read = { tool: readTool as Tool, input: { file_path: "/w/a" } };
const edit = { tool: editTool as Tool, input: { file_path: "/w/a", old_string: "a", new_string: "b" } };
const bash = { tool: bashTool as Tool, input: { command: "npm test" } };
const fetch = { tool: webFetchTool as Tool, input: { url: "https://example.com/x", prompt: "p" } };

const action = (call: { tool: Tool; input: unknown }, mode: string, rules: PermissionRule[] = []) =>
  decide({ ...call, mode, rules }).action;
const rule = (toolName: string, decision: "allow" | "deny", scope?: string): PermissionRule => ({
  requestId: "perm_1",
  toolCallId: "call_1",
  toolName,
  decision,
  ...(scope !== undefined ? { scope } : {}),
});

describe("modes", () => {
  const table: [string, string[]][] = [
    ["default", ["allow", "ask", "ask", "ask"]],
    ["acceptEdits", ["allow", "allow", "ask", "ask"]],
    ["plan", ["allow", "deny", "deny", "ask"]],
    ["bypassPermissions", ["allow", "allow", "allow", "allow"]],
  ];
  test.each(table)("%s: read, edit, command, fetch", (mode, expected) => {
    expect([read, edit, bash, fetch].map((call): string => action(call, mode))).toEqual(expected);
  });

  test("plan mode's refusal names the mode and tells the model not to retry", () => {
    expect(decide({ ...edit, mode: "plan", rules: [] })).toMatchObject({
      action: "deny",
      by: "mode",
      reason: "plan mode allows only read-only tools",
    });
  });
});

describe("saved rules", () => {
  test("an allow rule for a tool runs its calls without asking", () => {
    expect(action(edit, "default", [rule("Edit", "allow")])).toBe("allow");
    expect(action(bash, "default", [rule("Edit", "allow")])).toBe("ask");
  });

  test("a scoped rule covers only calls with the same scope", () => {
    expect(action(bash, "default", [rule("Bash", "allow", "npm test")])).toBe("allow");
    expect(
      action({ tool: bashTool as Tool, input: { command: "rm -rf /" } }, "default", [
        rule("Bash", "allow", "npm test"),
      ]),
    ).toBe("ask");
  });

  test("a deny rule refuses, wins over an allow rule, and holds even when permissions are bypassed", () => {
    const rules = [rule("Bash", "allow", "npm test"), rule("Bash", "deny", "npm test")];
    expect(decide({ ...bash, mode: "default", rules })).toMatchObject({ action: "deny", by: "rule" });
    expect(action(bash, "bypassPermissions", [rule("Bash", "deny")])).toBe("deny");
  });

  test("plan mode refuses edits whatever the rules say", () => {
    expect(action(edit, "plan", [rule("Edit", "allow")])).toBe("deny");
  });
});

describe("hook verdicts (one more input)", () => {
  test("deny refuses with the hook's reason; ask forces a question; allow skips it", () => {
    expect(
      decide({ ...read, mode: "default", rules: [], hook: { decision: "deny", reason: "no reading secrets" } }),
    ).toMatchObject({ action: "deny", by: "hook", reason: "no reading secrets" });
    expect(decide({ ...read, mode: "default", rules: [], hook: { decision: "ask" } }).action).toBe("ask");
    expect(decide({ ...bash, mode: "default", rules: [], hook: { decision: "allow" } }).action).toBe("allow");
    expect(decide({ ...bash, mode: "plan", rules: [], hook: { decision: "allow" } }).action).toBe("deny");
  });
});

describe("a command the OS sandbox confines", () => {
  const sandboxed = (mode: string, sandbox: "unasked" | "asks", rules: PermissionRule[] = []) =>
    decide({ ...bash, mode, rules, sandbox }).action;

  test("runs unasked in the default and acceptEdits modes when the sandbox's auto-allow holds", () => {
    expect(["default", "acceptEdits"].map((mode) => sandboxed(mode, "unasked"))).toEqual(["allow", "allow"]);
  });

  test("asks when auto-allow is off (autoAllowBashIfSandboxed: false)", () => {
    expect(sandboxed("default", "asks")).toBe("ask");
  });

  test("runs (read-only) in plan mode instead of being refused, auto-allow or not", () => {
    expect([sandboxed("plan", "unasked"), sandboxed("plan", "asks")]).toEqual(["allow", "allow"]);
  });

  test("a deny rule still refuses it", () => {
    expect(sandboxed("default", "unasked", [rule("Bash", "deny")])).toBe("deny");
  });
});
