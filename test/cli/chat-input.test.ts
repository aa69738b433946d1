/**
 * What is typed into `verbatim chat` at a terminal (under util-linux `script`) is never lost: a
 * paste of several lines is one prompt, a line typed while a turn runs is the next prompt, Up
 * brings back a prompt sent, a new line can be typed, and the chat's own commands are answered
 * at the terminal, never sent to the model.
 */
import { describe, expect, test } from "bun:test";
import { runCli } from "../support/cli-process.ts";
import { terminal, type Terminal } from "../support/pty.ts";
import { sandbox } from "../support/workspace.ts";

const PROMPT = "› ";
const PASTE = (text: string) => `\x1b[200~${text}\x1b[201~`;

/** Without colour, so that the answers read as plain text on the screen. */
const plain = (env: Record<string, string>) => ({ ...env, NO_COLOR: "1" });

const sessionOf = (t: Terminal) => /session (ses_[0-9a-z]+)/.exec(t.screen())?.[1] as string;

/** Ends the chat with Ctrl-D and returns what `show` draws of its session. */
async function endAndShow(t: Terminal, env: Record<string, string>): Promise<string> {
  t.type("\x04");
  expect(await t.exited).toBe(0);
  return (await runCli(["show", sessionOf(t)], env)).stdout;
}

describe("verbatim chat's input", () => {
  test("a paste of three lines is sent whole, as one prompt, when Enter is pressed", async () => {
    const box = sandbox("scripted/echo");
    const t = terminal(["chat", "--cwd", box.workspace], plain(box.env));
    let at = await t.waitFor(PROMPT);
    t.type(PASTE("first line\rsecond line\rthird line"));
    await Bun.sleep(300);
    expect(t.screen().slice(at)).not.toContain("You said");
    t.type("\r");
    at = await t.waitFor("You said: first line\nsecond line\nthird line", at);
    await t.waitFor(PROMPT, at);
    const shown = await endAndShow(t, box.env);
    // One prompt of three lines, answered once.
    expect(shown).toContain(
      "> first line\n> second line\n> third line\n\nYou said: first line\nsecond line\nthird line",
    );
    expect(shown.split("You said:").length - 1).toBe(1);
  });

  test("lines typed while a turn runs are kept and sent, in order, as the next prompts", async () => {
    const box = sandbox("scripted/slow");
    const t = terminal(["chat", "--cwd", box.workspace], plain(box.env));
    let at = await t.waitFor(PROMPT);
    t.type("first\r");
    at = await t.waitFor("Here is a long", at);
    t.type("second\r");
    t.type("third\r");
    at = await t.waitFor("> second", at);
    at = await t.waitFor("> third", at);
    at = await t.waitFor(PROMPT, at);
    const shown = await endAndShow(t, box.env);
    expect(shown.indexOf("> first\n")).toBeGreaterThanOrEqual(0);
    expect(shown.indexOf("> second\n")).toBeGreaterThan(shown.indexOf("> first\n"));
    expect(shown.indexOf("> third\n")).toBeGreaterThan(shown.indexOf("> second\n"));
  });

  test("Up brings back the prompt sent before, to send again", async () => {
    const box = sandbox("scripted/echo");
    const t = terminal(["chat", "--cwd", box.workspace], plain(box.env));
    let at = await t.waitFor(PROMPT);
    t.type("say it once\r");
    at = await t.waitFor("You said: say it once", at);
    at = await t.waitFor(PROMPT, at);
    t.type("\x1b[A");
    await Bun.sleep(200);
    t.type("\r");
    at = await t.waitFor("You said: say it once", at);
    await t.waitFor(PROMPT, at);
    const shown = await endAndShow(t, box.env);
    expect(shown.split("> say it once\n").length - 1).toBe(2);
  });

  test("Alt+Enter and a line ending in a backslash start a new line instead of sending", async () => {
    const box = sandbox("scripted/echo");
    const t = terminal(["chat", "--cwd", box.workspace], plain(box.env));
    let at = await t.waitFor(PROMPT);
    t.type("one\x1b\r");
    t.type("two\\\r");
    t.type("three\r");
    at = await t.waitFor("You said: one\ntwo\nthree", at);
    await t.waitFor(PROMPT, at);
    const shown = await endAndShow(t, box.env);
    expect(shown).toContain("> one\n> two\n> three\n");
  });

  test("/help lists the chat's commands, the session's and the keys, and sends nothing", async () => {
    const box = sandbox("scripted/echo");
    const t = terminal(["chat", "--cwd", box.workspace], plain(box.env));
    let at = await t.waitFor(PROMPT);
    t.type("/help\r");
    at = await t.waitFor("Chat commands (answered here, never sent):", at);
    at = await t.waitFor("/compact", at);
    at = await t.waitFor("Alt+Enter", at);
    await t.waitFor(PROMPT, at);
    const shown = await endAndShow(t, box.env);
    expect(shown).not.toContain("/help");
  });

  test("an unknown /word is answered with the list and never sent to the model", async () => {
    const box = sandbox("scripted/echo");
    const t = terminal(["chat", "--cwd", box.workspace], plain(box.env));
    let at = await t.waitFor(PROMPT);
    t.type("/bogus do it\r");
    at = await t.waitFor("/bogus is not a command here; nothing was sent.", at);
    at = await t.waitFor(PROMPT, at);
    t.type("/etc/hosts is a path, so this is a prompt\r");
    at = await t.waitFor("You said: /etc/hosts is a path", at);
    await t.waitFor(PROMPT, at);
    const shown = await endAndShow(t, box.env);
    expect(shown).not.toContain("/bogus");
    expect(shown).toContain("> /etc/hosts is a path");
  });

  for (const command of ["/exit", "/quit"])
    test(`${command} ends the chat, saying how to continue it`, async () => {
      const box = sandbox("scripted/echo");
      const t = terminal(["chat", "--cwd", box.workspace], plain(box.env));
      await t.waitFor(PROMPT);
      t.type(`${command}\r`);
      expect(await t.exited).toBe(0);
      expect(t.screen()).toContain("continue with: verbatim chat --session ");
    });

  test("Ctrl-C at the prompt clears what is typed, and on an empty prompt says how to leave", async () => {
    const box = sandbox("scripted/echo");
    const t = terminal(["chat", "--cwd", box.workspace], plain(box.env));
    let at = await t.waitFor(PROMPT);
    t.type("never sent\x03");
    await Bun.sleep(200);
    t.type("\x03");
    at = await t.waitFor("(no turn is running; Ctrl-D or /exit ends the chat)", at);
    t.type("sent\r");
    at = await t.waitFor("You said: sent", at);
    await t.waitFor(PROMPT, at);
    const shown = await endAndShow(t, box.env);
    expect(shown).not.toContain("never sent");
  });
});
