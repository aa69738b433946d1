/**
 * Workspace trust: a list of folders in the user config, `verbatim trust DIR` to add one, and
 * `--trust` for a headless run. A project's own files can never trust it.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isTrusted, trustFolder } from "../../src/core/hooks/trust.ts";
import { connectProcess, newSession, prompt } from "../support/acp-session.ts";
import { runCli } from "../support/cli-process.ts";
import { command, settingsPath, writeHooks } from "../support/hooks.ts";
import { sandbox } from "../support/workspace.ts";

describe("trusted folders", () => {
  test("a trusted folder trusts itself and the folders inside it, not its neighbours", () => {
    const box = sandbox();
    mkdirSync(join(box.workspace, "sub", "deeper"), { recursive: true });
    mkdirSync(join(box.root, "workspace-other"));
    trustFolder(box.env, box.workspace);
    expect(isTrusted(box.env, box.workspace)).toBe(true);
    expect(isTrusted(box.env, join(box.workspace, "sub", "deeper"))).toBe(true);
    expect(isTrusted(box.env, join(box.root, "workspace-other"))).toBe(false);
    expect(isTrusted(box.env, box.root)).toBe(false);
  });

  test("trust follows symlinks to the real folder", () => {
    const box = sandbox();
    const link = join(box.root, "link");
    symlinkSync(box.workspace, link);
    trustFolder(box.env, link);
    expect(isTrusted(box.env, box.workspace)).toBe(true);
  });

  test("trusting keeps the rest of the user config, and the file is private", () => {
    const box = sandbox();
    const path = settingsPath(box, "verbatim-user");
    mkdirSync(join(box.configHome, "verbatim"), { recursive: true });
    writeFileSync(path, JSON.stringify({ notify: { command: "n" }, hooks: {} }));
    expect(trustFolder(box.env, box.workspace).added).toBe(true);
    expect(trustFolder(box.env, box.workspace).added).toBe(false);
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({
      notify: { command: "n" },
      hooks: {},
      trustedFolders: [box.workspace],
    });
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  test("a user config that is not valid JSON is left alone", () => {
    const box = sandbox();
    const path = settingsPath(box, "verbatim-user");
    mkdirSync(join(box.configHome, "verbatim"), { recursive: true });
    writeFileSync(path, "{ broken");
    expect(() => trustFolder(box.env, box.workspace)).toThrow("not valid JSON");
    expect(readFileSync(path, "utf8")).toBe("{ broken");
  });

  test("a project cannot trust itself from its own config files", () => {
    const box = sandbox();
    mkdirSync(join(box.workspace, ".verbatim"));
    writeFileSync(settingsPath(box, "verbatim-project"), JSON.stringify({ trustedFolders: [box.workspace] }));
    writeHooks(box, "claude-project", {});
    writeFileSync(settingsPath(box, "claude-project"), JSON.stringify({ trustedFolders: [box.workspace] }));
    expect(isTrusted(box.env, box.workspace)).toBe(false);
  });
});

describe("from the command line", () => {
  test("verbatim trust DIR makes project hooks run; before it they are skipped", async () => {
    const box = sandbox("scripted/command");
    const ran = join(box.root, "hook-ran");
    writeHooks(box, "claude-project", { PreToolUse: [{ hooks: [command(`touch ${ran}`)] }] });
    const before = await runCli(["run", "--cwd", box.workspace, "--approve", "all", "echo hi"], box.env);
    expect(before.code).toBe(0);
    expect(existsSync(ran)).toBe(false);
    expect(before.stdout).toContain("1 project hook not run: this workspace is not trusted");

    const trusted = await runCli(["trust", box.workspace], box.env);
    expect(trusted.code).toBe(0);
    expect(trusted.stdout).toContain(`Trusted ${box.workspace}`);
    expect(await runCli(["run", "--cwd", box.workspace, "--approve", "all", "echo hi"], box.env)).toMatchObject({
      code: 0,
    });
    expect(existsSync(ran)).toBe(true);
  });

  test("verbatim run --trust runs project hooks without changing the trusted folders", async () => {
    const box = sandbox("scripted/command");
    const ran = join(box.root, "hook-ran");
    writeHooks(box, "claude-project", { PreToolUse: [{ hooks: [command(`touch ${ran}`)] }] });
    expect(
      await runCli(["run", "--trust", "--cwd", box.workspace, "--approve", "all", "echo hi"], box.env),
    ).toMatchObject({ code: 0 });
    expect(existsSync(ran)).toBe(true);
    expect(existsSync(settingsPath(box, "verbatim-user"))).toBe(false);
  });

  test("the agent started with --trust runs project hooks in the workspaces it opens", async () => {
    const box = sandbox("scripted/command");
    const ran = join(box.root, "hook-ran");
    writeHooks(box, "claude-project", { PreToolUse: [{ hooks: [command(`touch ${ran}`)] }] });
    const agent = await connectProcess(box.env, { args: ["--trust"] });
    try {
      const { sessionId } = await newSession(agent.ctx, box.workspace);
      await prompt(agent.ctx, sessionId, "echo hi");
    } finally {
      await agent.close();
    }
    expect(existsSync(ran)).toBe(true);
  });
});
