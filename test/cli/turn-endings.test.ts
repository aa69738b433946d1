/**
 * How a turn ended is in the transcript where it stopped, live and reopened: a cancelled turn,
 * a failed one with its reason, one stopped by a limit, and one a crash cut off (the golden
 * journals recorded across a kill -9), drawn by `run`, `show` and `chat --continue` alike.
 */
import { describe, expect, test } from "bun:test";
import { importRows, readGolden } from "../support/golden-journals.ts";
import { runCli } from "../support/cli-process.ts";
import { terminal } from "../support/pty.ts";
import { sandbox } from "../support/workspace.ts";

const INTERRUPTED = "(the turn was interrupted: verbatim stopped while it ran)";

const sessionOf = (stderr: string) => /session (ses_[0-9a-z]+)/.exec(stderr)?.[1] as string;

describe("how a turn ended, in the transcript", () => {
  test("a failed turn ends with its reason, in run's transcript and in show's", async () => {
    const box = sandbox("scripted/error");
    const ran = await runCli(["run", "--cwd", box.workspace, "go"], box.env);
    expect(ran.code).toBe(1);
    const line = "! The model provider failed: the scripted provider dropped the connection\n\n(the turn failed)\n";
    expect(ran.stdout).toContain(`Starting the answer, and then \n\n`);
    expect(ran.stdout).toContain(line);
    const shown = await runCli(["show", sessionOf(ran.stderr)], box.env);
    expect(shown.stdout).toContain(line);
  });

  test("a turn stopped by the output limit says so after its last word", async () => {
    const box = sandbox("scripted/max-tokens");
    const ran = await runCli(["run", "--cwd", box.workspace, "go"], box.env);
    expect(ran.stdout).toContain("reached the\n\n(the turn stopped: the answer reached the model's output limit)\n");
    const shown = await runCli(["show", sessionOf(ran.stderr)], box.env);
    expect(shown.stdout).toContain("(the turn stopped: the answer reached the model's output limit)");
  });

  test("a turn cut off by a crash is shown interrupted, after its cards, by show and by chat --continue", async () => {
    const golden = readGolden("v1-crash-left-open");
    const box = sandbox("scripted/command");
    importRows(box.home, golden.rows);
    const shown = await runCli(["show", golden.meta.sessionId], box.env);
    expect(shown.stdout).toContain("Interrupted: verbatim stopped while this call was running");
    expect(shown.stdout.trimEnd().split("\n").slice(-3)[0]).toBe(INTERRUPTED);

    const chat = terminal(["chat", "--cwd", box.workspace, "--session", golden.meta.sessionId], box.env);
    await chat.waitFor("› ");
    expect(chat.screen()).toContain(INTERRUPTED);
    chat.type("\x04");
    expect(await chat.exited).toBe(0);
  });

  test("a crashed turn the session went on from is shown interrupted where it stopped, before the next prompt", async () => {
    const golden = readGolden("v1-crash-recovered");
    const box = sandbox("scripted/command");
    importRows(box.home, golden.rows);
    const shown = (await runCli(["show", golden.meta.sessionId], box.env)).stdout;
    const at = shown.indexOf(INTERRUPTED);
    expect(at).toBeGreaterThan(shown.indexOf("Interrupted: verbatim stopped while this call was running"));
    expect(at).toBeLessThan(shown.indexOf("> echo carried on"));
    expect(shown.split(INTERRUPTED).length - 1).toBe(1);
  });
});
