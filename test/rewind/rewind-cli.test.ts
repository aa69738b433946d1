/**
 * At the command line: `run --json` names each prompt's message id and its turn's last answer's;
 * `show ID --ids` lists the messages a client is shown; `rewind ID --to MESSAGE [--files]` takes the
 * session back, and `show` then draws what a reopened client shows.
 */
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { lastJsonLine, runCli } from "../support/cli-process.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";

async function runJson(box: Sandbox, args: string[]) {
  const result = await runCli(["run", "--json", "--cwd", box.workspace, ...args], box.env);
  expect(result.code).toBe(0);
  return lastJsonLine(result.stdout) as { sessionId: string; messageId: string; lastMessageId: string };
}

describe("rewinding from the command line", () => {
  test("run --json names the prompt's message id and the turn's last answer's", async () => {
    const box = sandbox("scripted/demo");
    const first = await runJson(box, ["Overview"]);
    expect(first.messageId).toStartWith("msg_");
    expect(first.lastMessageId).toStartWith("msg_");
    expect(first.lastMessageId).not.toBe(first.messageId);
  });

  test("show --ids lists the messages; rewind --to takes back what followed; show draws the rest", async () => {
    const box = sandbox("scripted/demo");
    const first = await runJson(box, ["Overview"]);
    const second = await runJson(box, ["--session", first.sessionId, "Now the missing file"]);
    const listed = await runCli(["show", first.sessionId, "--ids"], box.env);
    expect(listed.code).toBe(0);
    const ids = listed.stdout
      .trim()
      .split("\n")
      .map((line) => line.split(/\s+/)[0]);
    expect(ids).toContain(first.lastMessageId);
    expect(ids).toContain(second.messageId);
    const rewound = await runCli(["rewind", first.sessionId, "--to", first.lastMessageId], box.env);
    expect(rewound.code).toBe(0);
    expect(rewound.stdout).toContain("what commands did is never undone");
    const after = await runCli(["show", first.sessionId, "--ids"], box.env);
    expect(after.stdout).toContain(first.lastMessageId);
    expect(after.stdout).not.toContain(second.messageId);
    const shown = await runCli(["show", first.sessionId], box.env);
    expect(shown.stdout).toContain("Overview");
    expect(shown.stdout).not.toContain("Now the missing file");
  });

  test("rewind --files restores what verbatim wrote after the message", async () => {
    const box = sandbox("scripted/call");
    const readme = join(box.workspace, "README.md");
    const first = await runJson(box, ["--approve", "all", `Read ${JSON.stringify({ file_path: readme })}`]);
    const notes = join(box.workspace, "notes.txt");
    await runJson(box, [
      "--session",
      first.sessionId,
      "--approve",
      "all",
      `Write ${JSON.stringify({ file_path: notes, content: "x\n" })}`,
    ]);
    expect(existsSync(notes)).toBe(true);
    const rewound = await runCli(
      ["rewind", first.sessionId, "--to", first.lastMessageId, "--files", "--approve", "edits"],
      box.env,
    );
    expect(rewound.code).toBe(0);
    expect(rewound.stdout).toContain(`removed ${notes}`);
    expect(existsSync(notes)).toBe(false);
  });

  test("rewind --files without an approval restores nothing, records the refusal and exits 3", async () => {
    const box = sandbox("scripted/call");
    const readme = join(box.workspace, "README.md");
    const first = await runJson(box, ["--approve", "all", `Read ${JSON.stringify({ file_path: readme })}`]);
    const notes = join(box.workspace, "notes.txt");
    await runJson(box, [
      "--session",
      first.sessionId,
      "--approve",
      "all",
      `Write ${JSON.stringify({ file_path: notes, content: "x\n" })}`,
    ]);
    const rewound = await runCli(["rewind", first.sessionId, "--to", first.lastMessageId, "--files"], box.env);
    expect(rewound.code).toBe(3);
    expect(rewound.stdout).toContain("files were not restored");
    expect(existsSync(notes)).toBe(true);
    const shown = await runCli(["show", first.sessionId], box.env);
    expect(shown.stdout).toContain("Not restored");
  });

  test("an unknown message is refused with the way to list the ids", async () => {
    const box = sandbox("scripted/demo");
    const first = await runJson(box, ["Overview"]);
    const rewound = await runCli(["rewind", first.sessionId, "--to", "msg_nope"], box.env);
    expect(rewound.code).not.toBe(0);
    expect(rewound.stderr).toContain("--ids");
  });
});
