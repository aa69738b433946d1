/**
 * One renderer: what `verbatim run` streams on stdout is, byte for byte, what `verbatim show`
 * draws of the same session afterwards, below the title `show` heads it with. Only a refused turn
 * differs: run printed what streamed before the refusal; a reopened session leaves that turn out,
 * as ACP asks of a client (docs/acp-language.md).
 */
import { describe, expect, test } from "bun:test";
import { runCli } from "../support/cli-process.ts";
import { command, writeHooks } from "../support/hooks.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";

/** `show`'s output without the title it heads the transcript with. */
const withoutTitle = (shown: string) => shown.replace(/^# [^\n]*\n\n/, "");

const scenarios: [model: string, prompt: string, exit: number][] = [
  ["scripted/plain", "Hello", 0],
  ["scripted/thinking", "Think first", 0],
  ["scripted/tool", "Read it", 0],
  ["scripted/tool-failure", "Read the notes", 0],
  ["scripted/plan", "Plan it", 0],
  ["scripted/edit", "Fix it", 0],
  ["scripted/write", "Write notes", 0],
  ["scripted/command", "echo hello; echo oops >&2; exit 3", 0],
  ["scripted/search", "Search", 0],
  ["scripted/subagent", "Inspect it", 0],
  ["scripted/demo", "Give me an overview", 0],
  ["scripted/error", "Go", 1],
  ["scripted/max-tokens", "Go", 4],
];

/** Runs `prompt` and returns run's stdout with what `show` then prints (without its title). */
async function runThenShow(box: Sandbox, prompt: string, exit = 0): Promise<{ ran: string; shown: string }> {
  const run = await runCli(["run", "--approve", "all", "--cwd", box.workspace, prompt], box.env);
  expect(run.code).toBe(exit);
  const sessionId = /session (ses_[0-9a-z]+)/.exec(run.stderr)?.[1];
  expect(sessionId).toBeDefined();
  const shown = await runCli(["show", sessionId!], box.env);
  expect(shown.code).toBe(0);
  return { ran: run.stdout, shown: withoutTitle(shown.stdout) };
}

describe("run streams what show draws", () => {
  test.each(scenarios)("%s", async (model, prompt, exit) => {
    const { ran, shown } = await runThenShow(sandbox(model), prompt, exit);
    expect(ran).toBe(shown);
    expect(ran.length).toBeGreaterThan(20);
  });

  test("hook outcomes: on the card they judged, and as messages of their own", async () => {
    const box = sandbox("scripted/command");
    writeHooks(box, "claude-user", {
      PostToolUse: [
        {
          matcher: "Bash",
          hooks: [
            command(
              `echo '{"systemMessage": "output checked", "hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "fine"}}'`,
            ),
          ],
        },
      ],
      Stop: [{ hooks: [command(`echo '{"systemMessage": "remember to commit"}'`)] }],
    });
    const { ran, shown } = await runThenShow(box, "echo hi");
    expect(ran).toContain("Hook PostToolUse");
    expect(ran).toContain("remember to commit");
    expect(ran).toBe(shown);
  });

  test("a refused turn: run printed what streamed, the reopened session leaves the turn out", async () => {
    const box = sandbox("scripted/refusal");
    const run = await runCli(["run", "--cwd", box.workspace, "Go"], box.env);
    expect(run.code).toBe(3);
    expect(run.stdout).toContain("I can't help with that request.");
    const sessionId = /session (ses_[0-9a-z]+)/.exec(run.stderr)?.[1];
    const shown = await runCli(["show", sessionId!], box.env);
    expect(shown.stdout).not.toContain("I can't help with that request.");
  });
});
