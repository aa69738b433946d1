/** `verbatim run` as a process among others: signals from its parent, a reader that stops reading. */
import { describe, expect, test } from "bun:test";
import { nodeLauncher, runCli } from "../support/cli-process.ts";
import { sandbox } from "../support/workspace.ts";

describe("verbatim run through the npm launcher (node bin/verbatim.js)", () => {
  test.each([
    ["SIGTERM", 143],
    ["SIGHUP", 129],
  ] as const)("%s ends it as the signal does, not with 0", async (signal, code) => {
    const box = sandbox("scripted/slow");
    const r = await runCli(["run", "--cwd", box.workspace, "Go"], box.env, {
      command: nodeLauncher(),
      interruptWhen: (out) => out.includes("Here is a long"),
      signal,
    });
    expect(r.code).toBe(code);
  });
});

describe("verbatim run with its stdout closed", () => {
  test("a reader that stops early ends the run quietly, the session recorded as far as it went", async () => {
    const box = sandbox("scripted/slow");
    const r = await runCli(["run", "--json", "--cwd", box.workspace, "Go"], box.env, {
      closeStdoutWhen: (out) => out.split("\n").length > 3,
    });
    expect(r.stderr).not.toContain("EPIPE");
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.code).toBe(141);
    const id = /session (ses_[0-9a-z]+)/.exec(r.stderr)?.[1];
    expect(id).toBeDefined();
    const shown = await runCli(["show", id!], box.env);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain("> Go");
  });
});
