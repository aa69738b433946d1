/**
 * Hook configuration: every source merged in a fixed order (never overridden), identical
 * handlers run once, handler ids stable, project sources held back until trusted, and nothing
 * that does not run is dropped in silence.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { commandText, loadHookConfig, selectHandlers } from "../../src/core/hooks/config.ts";
import { command, settingsPath, writeHooks } from "../support/hooks.ts";
import { sandbox } from "../support/workspace.ts";

const load = (box: ReturnType<typeof sandbox>, trusted = true) =>
  loadHookConfig({ env: box.env, cwd: box.workspace, trusted });

describe("hook configuration", () => {
  test("all five sources merge in order: Claude user, verbatim user, Claude project, verbatim project, Claude local", () => {
    const box = sandbox();
    writeHooks(box, "claude-local", { PreToolUse: [{ hooks: [command("echo local")] }] });
    writeHooks(box, "verbatim-project", { PreToolUse: [{ hooks: [command("echo verbatim-project")] }] });
    writeHooks(box, "claude-project", { PreToolUse: [{ hooks: [command("echo claude-project")] }] });
    writeHooks(box, "verbatim-user", { PreToolUse: [{ hooks: [command("echo verbatim-user")] }] });
    writeHooks(box, "claude-user", { PreToolUse: [{ hooks: [command("echo claude-user")] }] });
    const config = load(box);
    expect(config.handlers.map((h) => h.command)).toEqual([
      "echo claude-user",
      "echo verbatim-user",
      "echo claude-project",
      "echo verbatim-project",
      "echo local",
    ]);
    expect(config.handlers.map((h) => h.displayOrder)).toEqual([0, 1, 2, 3, 4]);
    expect(config.handlers.map((h) => h.source.kind)).toEqual(["user", "user", "project", "project", "local"]);
    expect(config.problems).toEqual([]);
  });

  test('"disableAllHooks": true turns every hook off; the highest source that sets it decides (local over project over user)', () => {
    const box = sandbox();
    writeHooks(box, "claude-user", { Stop: [{ hooks: [command("echo user")] }] });
    writeHooks(box, "claude-project", { Stop: [{ hooks: [command("echo project")] }] });
    const setting = (place: Parameters<typeof settingsPath>[1], value: boolean) => {
      const path = settingsPath(box, place);
      writeFileSync(path, JSON.stringify({ ...JSON.parse(readFileSync(path, "utf8")), disableAllHooks: value }));
    };
    setting("claude-user", true);
    expect(load(box).handlers).toEqual([]);
    setting("claude-project", false);
    expect(load(box).handlers.map((h) => h.command)).toEqual(["echo user", "echo project"]);
    // Held back in an untrusted workspace, the project file decides nothing: the user's setting holds.
    expect(load(box, false).handlers).toEqual([]);
  });

  test("the same handler in two settings files runs once, in its first place", () => {
    const box = sandbox();
    writeHooks(box, "claude-user", { Stop: [{ hooks: [command("./check.sh")] }] });
    writeHooks(box, "claude-project", { Stop: [{ hooks: [command("./check.sh"), command("./other.sh")] }] });
    const config = load(box);
    expect(config.handlers.map((h) => [h.command, h.source.kind])).toEqual([
      ["./check.sh", "user"],
      ["./other.sh", "project"],
    ]);
  });

  test("project and local hooks are held back in an untrusted workspace; user hooks still run", () => {
    const box = sandbox();
    writeHooks(box, "claude-user", { Stop: [{ hooks: [command("echo user")] }] });
    writeHooks(box, "claude-project", { Stop: [{ hooks: [command("echo project")] }] });
    writeHooks(box, "claude-local", { Stop: [{ hooks: [command("echo local")] }] });
    const config = load(box, false);
    expect(config.handlers.map((h) => h.command)).toEqual(["echo user"]);
    expect(config.untrusted.map((h) => h.command)).toEqual(["echo project", "echo local"]);
  });

  test("a handler's id is the same for the same configuration and changes when its command changes", () => {
    const box = sandbox();
    writeHooks(box, "claude-project", { PreToolUse: [{ matcher: "Bash", hooks: [command("./guard.sh")] }] });
    const first = load(box).handlers[0]?.hookId;
    expect(load(box).handlers[0]?.hookId).toBe(first);
    expect(first).toMatch(/^hk_[0-9a-f]{16}$/);
    writeHooks(box, "claude-project", { PreToolUse: [{ matcher: "Bash", hooks: [command("./guard.sh --strict")] }] });
    expect(load(box).handlers[0]?.hookId).not.toBe(first);
  });

  test("other handler types, async hooks, unknown events and bad matchers are reported, not silently ignored", () => {
    const box = sandbox();
    writeHooks(box, "claude-project", {
      PreToolUse: [
        {
          matcher: "Bash",
          hooks: [
            { type: "http", url: "http://127.0.0.1:9/hook" },
            { type: "prompt", prompt: "is it safe?" },
            command("./ok.sh"),
          ],
        },
        { matcher: "[", hooks: [command("./never.sh")] },
      ],
      PostToolUse: [{ hooks: [command("./later.sh", { async: true })] }],
      WorktreeCreate: [{ hooks: [command("./worktree.sh")] }],
      NoSuchEvent: [{ hooks: [command("./x.sh")] }],
    });
    const config = load(box);
    expect(config.handlers.map((h) => h.command)).toEqual(["./ok.sh"]);
    const texts = config.problems.map((p) => p.text).join("\n");
    expect(texts).toContain('"http" hooks are not supported');
    expect(texts).toContain('"prompt" hooks are not supported');
    expect(texts).toContain('the matcher "[" is not a valid pattern');
    expect(texts).toContain('"async" hooks are not supported yet');
    expect(texts).toContain("verbatim does not fire WorktreeCreate hooks yet");
    expect(texts).toContain('unknown hook event "NoSuchEvent"');
  });

  test("a settings file that is not valid JSON is an error that names it; the other files still load", () => {
    const box = sandbox();
    writeHooks(box, "claude-user", { Stop: [{ hooks: [command("echo fine")] }] });
    writeHooks(box, "verbatim-user", {});
    writeFileSync(settingsPath(box, "verbatim-user"), "{ not json");
    const config = load(box);
    expect(config.handlers.map((h) => h.command)).toEqual(["echo fine"]);
    expect(config.problems).toEqual([
      { severity: "error", text: expect.stringContaining(`${settingsPath(box, "verbatim-user")} is not valid JSON`) },
    ]);
  });

  test("timeouts are seconds; a value over an hour is read as milliseconds, with a warning", () => {
    const box = sandbox();
    writeHooks(box, "claude-user", {
      Stop: [{ hooks: [command("a", { timeout: 5 }), command("b", { timeout: 60000 }), command("c")] }],
    });
    const config = load(box);
    expect(config.handlers.map((h) => h.timeoutSec)).toEqual([5, 60, 60]);
    expect(config.problems.map((p) => p.text)).toEqual([expect.stringContaining("read as milliseconds")]);
  });

  test("matchers select by the event's field; events without one ignore the matcher", () => {
    const box = sandbox();
    writeHooks(box, "claude-user", {
      PreToolUse: [
        { matcher: "Edit|Write", hooks: [command("edits")] },
        { matcher: "*", hooks: [command("all")] },
      ],
      UserPromptSubmit: [{ matcher: "NeverMatches", hooks: [command("prompt")] }],
    });
    const config = load(box);
    expect(selectHandlers(config, "PreToolUse", "Write").map((h) => h.command)).toEqual(["edits", "all"]);
    expect(selectHandlers(config, "PreToolUse", "Bash").map((h) => h.command)).toEqual(["all"]);
    expect(selectHandlers(config, "UserPromptSubmit", undefined).map((h) => h.command)).toEqual(["prompt"]);
  });

  test("a matcher written with Claude Code's name for a tool (Agent for Task) selects it, once", () => {
    const box = sandbox();
    writeHooks(box, "claude-user", {
      PreToolUse: [
        { matcher: "Agent", hooks: [command("agent")] },
        { matcher: "Task|Agent", hooks: [command("both")] },
        { matcher: "Bash", hooks: [command("bash")] },
      ],
    });
    const config = load(box);
    expect(selectHandlers(config, "PreToolUse", "Task").map((h) => h.command)).toEqual(["agent", "both"]);
  });

  test("a matcher written with an earlier name of a background-job tool (KillShell, KillBash, BashOutput) selects it", () => {
    const box = sandbox();
    writeHooks(box, "claude-user", {
      PreToolUse: [
        { matcher: "KillShell", hooks: [command("kill-shell")] },
        { matcher: "KillBash|TaskStop", hooks: [command("stop")] },
        { matcher: "BashOutput", hooks: [command("output")] },
      ],
    });
    const config = load(box);
    expect(selectHandlers(config, "PreToolUse", "TaskStop").map((h) => h.command)).toEqual(["kill-shell", "stop"]);
    expect(selectHandlers(config, "PreToolUse", "TaskOutput").map((h) => h.command)).toEqual(["output"]);
  });

  test("exec form keeps the program and its arguments apart", () => {
    const box = sandbox();
    writeHooks(box, "claude-user", { Stop: [{ hooks: [command("/usr/bin/env", { args: ["printf", "%s", "a b"] })] }] });
    const [handler] = load(box).handlers;
    expect(handler?.args).toEqual(["printf", "%s", "a b"]);
    expect(commandText(handler!)).toBe("/usr/bin/env printf %s a b");
  });
});
