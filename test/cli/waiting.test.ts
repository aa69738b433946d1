/**
 * Something moves while a user waits (at a terminal, under util-linux `script`): the time the
 * model has been waited for, and a command's output as its progress is recorded, in `run`,
 * `chat` and `watch`; `watch` says when a turn ends and how. No fact is added for any of it.
 */
import { describe, expect, test } from "bun:test";
import { runCli } from "../support/cli-process.ts";
import { terminal } from "../support/pty.ts";
import { sandbox } from "../support/workspace.ts";

const STEPS = "for i in 1 2 3; do echo step$i; sleep 1; done";
const ANSWER = "Sorry to keep you waiting";

const plain = (env: Record<string, string>) => ({ ...env, NO_COLOR: "1" });

describe("while the model is waited for", () => {
  test("run at a terminal shows for how long, until the answer starts", async () => {
    const box = sandbox("scripted/hesitant");
    const t = terminal(["run", "--cwd", box.workspace, "hello"], plain(box.env));
    const waited = await t.waitFor("… waiting for the model: 2s");
    const answered = await t.waitFor(ANSWER);
    expect(waited).toBeLessThan(answered);
    expect(await t.exited).toBe(0);
  });

  test("chat at a terminal shows it too", async () => {
    const box = sandbox("scripted/hesitant");
    const t = terminal(["chat", "--cwd", box.workspace], plain(box.env));
    let at = await t.waitFor("› ");
    t.type("hello\r");
    at = await t.waitFor("… waiting for the model: 1s", at);
    at = await t.waitFor(ANSWER, at);
    await t.waitFor("› ", at);
    t.type("\x04");
    expect(await t.exited).toBe(0);
  });

  test("nothing is shown where stderr is not a terminal, and the session records nothing of it", async () => {
    const box = sandbox("scripted/hesitant");
    const ran = await runCli(["run", "--cwd", box.workspace, "hello"], box.env);
    expect(ran.code).toBe(0);
    expect(ran.stderr).not.toContain("waiting for the model");
    const id = /session (ses_[0-9a-z]+)/.exec(ran.stderr)?.[1] as string;
    expect((await runCli(["show", id], box.env)).stdout).not.toContain("waiting for the model");
  });
});

describe("a command's output", () => {
  test("run shows each line as the command prints it, before the card with the whole output", async () => {
    const box = sandbox("scripted/command");
    const t = terminal(["run", "--cwd", box.workspace, "--approve", "all", STEPS], plain(box.env));
    const first = await t.waitFor("  │ step1");
    expect(t.screen()).not.toContain("step3");
    await t.waitFor("  │ step2", first);
    const card = await t.waitFor("[execute]");
    await t.waitFor("step1\n    step2\n    step3", card);
    expect(await t.exited).toBe(0);
  });

  test("watch shows it as the writer records it, then says how the turn ended", async () => {
    const box = sandbox("scripted/command");
    const first = await runCli(["run", "--cwd", box.workspace, "--approve", "all", "true"], box.env);
    const id = /session (ses_[0-9a-z]+)/.exec(first.stderr)?.[1] as string;
    const t = terminal(["watch", id], plain(box.env));
    try {
      await t.waitFor(`watching ${id}`);
      const running = runCli(["run", "--session", id, "--approve", "all", STEPS], box.env);
      const line = await t.waitFor("  │ step1");
      expect(t.screen().slice(line)).not.toContain("step3");
      await t.waitFor("verbatim: the turn ended: done", line);
      expect((await running).code).toBe(0);
    } finally {
      t.kill();
    }
  });
});
