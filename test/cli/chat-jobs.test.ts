/** `/jobs` at the chat prompt: the session's background jobs, as their cards recorded them. */
import { describe, expect, test } from "bun:test";
import { terminal } from "../support/pty.ts";
import { sandbox } from "../support/workspace.ts";

const PROMPT = "› ";

describe("verbatim chat /jobs", () => {
  test("lists none, then the job the model started, running, with its output file", async () => {
    const box = sandbox("scripted/call");
    const t = terminal(["chat", "--cwd", box.workspace, "--approve", "all"], box.env);
    let at = await t.waitFor(PROMPT);
    t.type("/jobs\r");
    at = await t.waitFor("(no background jobs in this session)", at);
    at = await t.waitFor(PROMPT, at);
    t.type('Bash {"command": "sleep 300", "run_in_background": true}\r');
    at = await t.waitFor("Command running in the background", at);
    at = await t.waitFor(PROMPT, at);
    t.type("/jobs\r");
    at = await t.waitFor("running  sleep 300", at);
    expect(t.screen().slice(at)).toMatch(/output: \S+job_\w+\.output/);
    await t.waitFor(PROMPT, at);
    t.type("\x04");
    expect(await t.exited).toBe(0);
  }, 60_000);
});
