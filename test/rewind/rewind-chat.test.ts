/** `/rewind` in `verbatim chat` (under util-linux `script`): back to an earlier prompt, another sent instead. */
import { expect, test } from "bun:test";
import { runCli } from "../support/cli-process.ts";
import { terminal } from "../support/pty.ts";
import { sandbox } from "../support/workspace.ts";

const ANSWER = "Every word you see here is recorded as it streams.";
const PROMPT = "› ";

test("/rewind lists the prompts, goes back to before the one chosen and sends the new text from there", async () => {
  const box = sandbox("scripted/plain");
  const t = terminal(["chat", "--cwd", box.workspace], box.env);
  let at = await t.waitFor(PROMPT);
  t.type("first question\r");
  at = await t.waitFor(ANSWER, at);
  at = await t.waitFor(PROMPT, at);
  t.type("second question\r");
  at = await t.waitFor(ANSWER, at);
  at = await t.waitFor(PROMPT, at);
  t.type("/rewind\r");
  at = await t.waitFor("go back to before prompt (1-2", at);
  expect(t.screen().slice(at - 200)).toContain("2  second question");
  t.type("2\r");
  at = await t.waitFor("send instead", at);
  t.type("another question\r");
  const said = await t.waitFor("(rewound: 2 message(s) and 0 tool call(s) taken back", at);
  // Said before the new prompt's turn is drawn, not after it.
  at = await t.waitFor("> another question", at);
  expect(said).toBeLessThan(at);
  at = await t.waitFor(PROMPT, at);
  t.type("\x04");
  expect(await t.exited).toBe(0);
  const sessionId = /session (ses_[0-9a-z]+)/.exec(t.screen())?.[1];
  const shown = await runCli(["show", sessionId!], box.env);
  expect(shown.stdout).toContain("> first question");
  expect(shown.stdout).toContain("> another question");
  expect(shown.stdout).not.toContain("second question");
});
