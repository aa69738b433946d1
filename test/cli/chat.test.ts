/**
 * `verbatim chat` at a terminal (under util-linux `script`): prompts typed and answered in turn,
 * Ctrl-C cancelling a turn, Ctrl-D ending, and `--continue` reopening the chat with its transcript
 * drawn first. And `verbatim` alone at a terminal says what it is.
 */
import { describe, expect, test } from "bun:test";
import { runCli } from "../support/cli-process.ts";
import { terminal } from "../support/pty.ts";
import { sandbox } from "../support/workspace.ts";

const ANSWER = "Every word you see here is recorded as it streams.";
const PROMPT = "› ";

describe("verbatim chat", () => {
  test("a chat of two prompts, ended with Ctrl-D, reopens with --continue showing both turns first", async () => {
    const box = sandbox("scripted/plain");
    const t = terminal(["chat", "--cwd", box.workspace], box.env);
    let at = await t.waitFor(PROMPT);
    t.type("first question\r");
    at = await t.waitFor(ANSWER, at);
    at = await t.waitFor(PROMPT, at);
    t.type("second question\r");
    at = await t.waitFor(ANSWER, at);
    at = await t.waitFor(PROMPT, at);
    t.type("\x04");
    expect(await t.exited).toBe(0);
    const sessionId = /session (ses_[0-9a-z]+)/.exec(t.screen())?.[1];
    expect(t.screen()).toContain(`continue with: verbatim chat --session ${sessionId}`);

    const again = terminal(["chat", "--cwd", box.workspace, "--continue"], box.env);
    const ready = await again.waitFor(PROMPT);
    const before = again.screen().slice(0, ready);
    expect(before.indexOf("> first question")).toBeGreaterThanOrEqual(0);
    expect(before.indexOf("> second question")).toBeGreaterThan(before.indexOf("> first question"));
    expect(before.split(ANSWER).length - 1).toBe(2);
    expect(before).toContain(`session ${sessionId}`);
    again.type("\x04");
    expect(await again.exited).toBe(0);
    const shown = await runCli(["show", sessionId!], box.env);
    expect(shown.stdout.split("> ").length - 1).toBe(2);
  });

  test("Ctrl-C cancels the turn that runs, keeping what streamed, and the chat goes on", async () => {
    const box = sandbox("scripted/slow");
    const t = terminal(["chat", "--cwd", box.workspace], box.env);
    let at = await t.waitFor(PROMPT);
    t.type("go\r");
    at = await t.waitFor("Here is a long", at);
    t.type("\x03");
    at = await t.waitFor("(the turn was cancelled)", at);
    at = await t.waitFor(PROMPT, at);
    t.type("\x04");
    expect(await t.exited).toBe(0);
    const sessionId = /session (ses_[0-9a-z]+)/.exec(t.screen())?.[1];
    const shown = await runCli(["show", sessionId!], box.env);
    expect(shown.stdout).toContain("Here is a long");
    expect(shown.stdout).toMatch(/Here is a long[^\n]*\n\n\(the turn was cancelled\)\n/);
    expect(shown.stdout).not.toContain("reasons for each choice. ".repeat(6).trim());
  });

  test("a permission question is asked in place, and the chat goes on after the answer", async () => {
    const box = sandbox("scripted/edit");
    const t = terminal(["chat", "--cwd", box.workspace], box.env);
    let at = await t.waitFor(PROMPT);
    t.type("fix it\r");
    at = await t.waitFor("answer 1-4: ", at);
    t.type("1\r");
    at = await t.waitFor('the third line now reads "Line 3."', at);
    await t.waitFor(PROMPT, at);
    t.type("\x04");
    expect(await t.exited).toBe(0);
  });

  test("without a terminal it says to use run, and exits 2", async () => {
    const box = sandbox("scripted/plain");
    const r = await runCli(["chat", "--cwd", box.workspace], box.env, { stdin: "hello\n" });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("verbatim chat needs a terminal");
    expect(r.stderr).toContain("verbatim run");
  });
});

describe("verbatim with no arguments at a terminal", () => {
  test("says on stderr that it speaks ACP on stdin, and points to chat and run", async () => {
    const box = sandbox("scripted/plain");
    const t = terminal([], box.env);
    await t.waitFor("Ctrl-C quits.");
    expect(t.screen()).toContain("Agent Client Protocol");
    expect(t.screen()).toContain("verbatim chat");
    expect(t.screen()).toContain('verbatim run "..."');
    t.type("\x03");
    await t.exited;
  });

  test("says nothing when stdin is not a terminal: stdout and stderr stay the protocol's", async () => {
    const box = sandbox("scripted/plain");
    const r = await runCli([], box.env, { stdin: "" });
    expect(r.stderr).not.toContain("Agent Client Protocol");
    expect(r.stdout).toBe("");
  });
});
