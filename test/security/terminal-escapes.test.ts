/**
 * The CLI never prints control characters that came from content: a model's text, a file's
 * contents and a command's output that try to erase lines, set the window title or write the
 * clipboard (OSC 52) are shown with those characters escaped, in `run` and in `show`.
 */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "../support/cli-process.ts";
import { sandbox } from "../support/workspace.ts";

const ESC = "\u001b";
const BEL = "\u0007";
/** Erase the line, move up, set the title, write the clipboard, a lone carriage return, a C1 CSI, a bidi override. */
const HOSTILE = `${ESC}[2K${ESC}[1A${ESC}]0;pwned${BEL}${ESC}]52;c;ZWNobyBoaQ==${BEL}fake\rline\u009b31m\u202e`;
/** Any control character but newline and tab (a CR only before a newline). */
const RAW_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|\r(?!\n)/;

describe("control characters from content", () => {
  test("run prints a model's text with its control characters escaped", async () => {
    const box = sandbox("scripted/echo");
    const r = await runCli(["run", "--cwd", box.workspace, `say ${HOSTILE}`], box.env);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(RAW_CONTROL);
    expect(r.stderr).not.toMatch(RAW_CONTROL);
    expect(r.stdout).toContain("\\x1b]52;c;ZWNobyBoaQ==\\x07");
    expect(r.stdout).toContain("fake\\rline\\x9b31m\\u{202e}");
  });

  test("show prints a command's output and a file's contents with their control characters escaped", async () => {
    const box = sandbox("scripted/command");
    writeFileSync(join(box.workspace, "evil.txt"), `${HOSTILE}\n`);
    const ran = await runCli(
      ["run", "--cwd", box.workspace, "--approve", "all", "cat evil.txt; printf '\\033]0;title\\007\\n'"],
      box.env,
    );
    expect(ran.stdout).not.toMatch(RAW_CONTROL);
    expect(ran.stderr).not.toMatch(RAW_CONTROL);
    const listed = await runCli(["sessions", "--json"], box.env);
    const { sessionId } = JSON.parse(listed.stdout.trim().split("\n")[0] as string) as { sessionId: string };
    const shown = await runCli(["show", sessionId], box.env);
    expect(shown.code).toBe(0);
    expect(shown.stdout).not.toMatch(RAW_CONTROL);
    expect(shown.stdout).toContain("\\x1b[2K\\x1b[1A\\x1b]0;pwned\\x07");
    expect(shown.stdout).toContain("\\x1b]0;title\\x07");
  });
});
