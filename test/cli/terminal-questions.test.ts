/**
 * `verbatim run` at a terminal: a permission question is asked there (the diff first, then the
 * options the request offers), and what is typed is recorded as the answer; Ctrl-C cancels the
 * turn. Under a pseudo-terminal (util-linux `script`).
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "../support/cli-process.ts";
import { terminal } from "../support/pty.ts";
import { sandbox } from "../support/workspace.ts";

const sessionOf = (screen: string) => /session (ses_[0-9a-z]+)/.exec(screen)?.[1];

describe("permission questions in a terminal", () => {
  test("are asked with the diff and the request's options, and the typed answer is recorded", async () => {
    const box = sandbox("scripted/edit");
    const t = terminal(["run", "--cwd", box.workspace, "Fix it"], box.env);
    const asked = await t.waitFor("answer 1-4: ");
    const screen = t.screen();
    expect(screen).toContain("-Line three.");
    expect(screen).toContain("+Line 3.");
    expect(screen).toMatch(
      /1\) Allow\n {2}2\) Always allow Edit for this session\n {2}3\) Refuse\n {2}4\) Always refuse Edit\n/,
    );
    expect(screen.indexOf("+Line 3.")).toBeLessThan(screen.indexOf("1) Allow"));
    t.type("7\r");
    await t.waitFor("type a number from 1 to 4", asked);
    t.type("1\r");
    expect(await t.exited).toBe(0);
    const shown = await runCli(["show", sessionOf(t.screen())!], box.env);
    expect(shown.stdout).toContain(
      "? asked: [Allow] | Always allow Edit for this session | Refuse | Always refuse Edit",
    );
    expect(shown.stdout).toContain("Permission: Allow (allowed once).");
    expect(shown.stdout).toContain('Done: the third line now reads "Line 3."');
  });

  test("a wrong answer and the right one typed together: the second answers the retry, nothing is lost", async () => {
    const box = sandbox("scripted/edit");
    const t = terminal(["run", "--cwd", box.workspace, "Fix it"], box.env);
    await t.waitFor("answer 1-4: ");
    t.type("7\r1\r");
    expect(await t.exited).toBe(0);
    expect(t.screen()).toContain('"7" is not one of the answers');
    const shown = await runCli(["show", sessionOf(t.screen())!], box.env);
    expect(shown.stdout).toContain("Permission: Allow (allowed once).");
  });

  test("a refusal typed is recorded as the refusal, and the edit does not happen", async () => {
    const box = sandbox("scripted/edit");
    const t = terminal(["run", "--cwd", box.workspace, "Fix it"], box.env);
    await t.waitFor("answer 1-4: ");
    t.type("3\r");
    expect(await t.exited).toBe(0);
    const shown = await runCli(["show", sessionOf(t.screen())!], box.env);
    expect(shown.stdout).toContain(
      "? asked: Allow | Always allow Edit for this session | [Refuse] | Always refuse Edit",
    );
  });

  test("--approve answers instead: nothing is asked", async () => {
    const box = sandbox("scripted/edit");
    const t = terminal(["run", "--approve", "all", "--cwd", box.workspace, "Fix it"], box.env);
    expect(await t.exited).toBe(0);
    expect(t.screen()).not.toContain("answer 1-4");
    expect(t.screen()).toContain("by --approve all");
  });

  test("never when stderr is not the terminal: refused as --approve none refuses", async () => {
    const box = sandbox("scripted/edit");
    const err = join(box.root, "stderr.txt");
    const t = terminal(["run", "--cwd", box.workspace, "Fix it"], box.env, `2>${err}`);
    expect(await t.exited).toBe(0);
    expect(t.screen()).not.toContain("answer 1-4");
    expect(readFileSync(err, "utf8")).toMatch(/\? Edit \S+README\.md: Refuse \(reject_once\) by --approve none/);
  });

  test("Ctrl-C at the question cancels the turn: the question ends cancelled and run exits 130", async () => {
    const box = sandbox("scripted/edit");
    const t = terminal(["run", "--cwd", box.workspace, "Fix it"], box.env);
    await t.waitFor("answer 1-4: ");
    t.type("\x03");
    expect(await t.exited).toBe(130);
    const shown = await runCli(["show", sessionOf(t.screen())!], box.env);
    expect(shown.stdout).toContain("(cancelled)");
  });

  test("Ctrl-C while the answer streams cancels the turn, keeping what streamed", async () => {
    const box = sandbox("scripted/slow");
    const t = terminal(["run", "--cwd", box.workspace, "Go"], box.env);
    await t.waitFor("Here is a long");
    t.type("\x03");
    expect(await t.exited).toBe(130);
    expect(t.screen()).toContain("(cancelled)");
    const shown = await runCli(["show", sessionOf(t.screen())!], box.env);
    expect(shown.stdout).toContain("Here is a long");
  });
});

describe("a run at a terminal", () => {
  test("is in colour, with the answer's emphasis; NO_COLOR draws the same text without any", async () => {
    const box = sandbox("scripted/edit");
    const coloured = terminal(["run", "--approve", "all", "--cwd", box.workspace, "Fix it"], box.env);
    expect(await coloured.exited).toBe(0);
    expect(coloured.screen()).toContain("\x1b[32m    +Line 3.\x1b[0m");
    const fresh = sandbox("scripted/edit");
    const plain = terminal(["run", "--approve", "all", "--cwd", fresh.workspace, "Fix it"], {
      ...fresh.env,
      NO_COLOR: "1",
    });
    expect(await plain.exited).toBe(0);
    expect(plain.screen()).not.toContain("\x1b[");
    expect(plain.screen()).toContain("    +Line 3.\n");
  });
});
