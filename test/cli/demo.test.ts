/**
 * `verbatim demo`: in one run, what verbatim is for (thinking, a plan, an edit with its diff and
 * its permission answer, a command, a cancelled answer), then the session reopened in a fresh
 * process and found identical, saying what was compared; in colour at a terminal; and no path of
 * the workspace it removes.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { runCli } from "../support/cli-process.ts";
import { terminal } from "../support/pty.ts";

let shown: { code: number; stdout: string; stderr: string };
beforeAll(async () => {
  shown = await runCli(["demo"], {});
}, 60_000);

describe("verbatim demo", () => {
  test("ends 0, the reopened session identical, in one line saying what was compared", () => {
    expect(shown.stderr).toBe("");
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(
      /^parity: IDENTICAL — the client's \d+ messages with their ids, \d+ tool cards \(diffs, command output, permission answers\), plan, mode and usage, field by field, live and reopened$/m,
    );
    expect(shown.stdout).toMatch(/^\(from \d+ updates live and \d+ on reload: a reload sends each message whole/m);
  });

  test("shows thinking, a plan labelled as one, an edit's diff and its permission answer, and a command", () => {
    expect(shown.stdout).toContain("  ~ The user wants the README tidied");
    expect(shown.stdout).toContain("[plan] Update plan (3 tasks) — completed");
    expect(shown.stdout).not.toContain("[think]");
    expect(shown.stdout).toContain("[edit] Edit ./README.md — completed");
    expect(shown.stdout).toContain("    -# Sample project\n    +# Sample project: a tiny app for the verbatim demo\n");
    expect(shown.stdout).toContain("? asked: [Allow] | Always allow Edit");
    expect(shown.stdout).toContain("[execute] wc -l README.md — completed");
    expect(shown.stdout).toMatch(/Permission: Allow \(allowed once\)\.[\s\S]*Permission: Allow \(allowed once\)\./);
  });

  test("a turn cancelled part of the way through keeps what it streamed", () => {
    expect(shown.stdout).toMatch(
      /Here is the whole project in detail,[^\n]*\n\n\(the turn was cancelled\)\n\n\(the demo cancelled it part of the way through, as Ctrl-C does\)/,
    );
    expect(shown.stdout).not.toContain("the tests and how they run. Here");
  });

  test("prints no path of the temporary workspace it removes, and no colour outside a terminal", () => {
    expect(shown.stdout).not.toContain("verbatim-demo-");
    expect(shown.stdout).not.toContain("\x1b[");
  });

  test("at a terminal, it is in colour", async () => {
    const t = terminal(["demo"], {});
    await t.waitFor("parity: IDENTICAL", 0, 60_000);
    expect(await t.exited).toBe(0);
    const screen = t.screen();
    // The diff's removed line in red, its added line in green.
    expect(screen).toMatch(/\x1b\[31m +-# Sample project\x1b\[0m/);
    expect(screen).toMatch(/\x1b\[32m +\+# Sample project: a tiny app for the verbatim demo\x1b\[0m/);
  }, 60_000);
});
