/**
 * verbatim's own lines (the error `run` ends with, `doctor`'s checks, `setup`'s questions) quote
 * what a provider, a journal or a file said; control characters in those quotes (erase the line,
 * set the window title, write the clipboard) are shown as escapes, never sent to the terminal.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { agentCommand } from "../../src/client/spawn-agent.ts";
import { SqliteJournal } from "../../src/journal/sqlite-store.ts";
import { runCli } from "../support/cli-process.ts";
import { fixtureServer } from "../support/fixture-server.ts";
import { createSession } from "../support/journal.ts";
import { chatKit, modelRef } from "../support/provider-kits.ts";
import { sandbox } from "../support/workspace.ts";

const ESC = "\u001b";
const BEL = "\u0007";
/** Erase the line, set the title (OSC 0), write the clipboard (OSC 52), a lone carriage return. */
const HOSTILE = `${ESC}[2K${ESC}]0;pwned${BEL}${ESC}]52;c;ZWNobyBoaQ==${BEL}fake\rline`;
const SHOWN = "\\x1b[2K\\x1b]0;pwned\\x07\\x1b]52;c;ZWNobyBoaQ==\\x07fake\\rline";
/** Any control character but newline and tab (a CR only before a newline). */
const RAW_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|\r(?!\n)/;

describe("control characters quoted in verbatim's own lines", () => {
  test("run's final error line shows a provider's error text with its escapes visible", async () => {
    const box = sandbox();
    const server = fixtureServer();
    server.enqueue(chatKit.badRequest(`bad request ${HOSTILE}`));
    const env = { ...box.env, VERBATIM_MODEL: modelRef(chatKit), ...chatKit.env(server) };

    const r = await runCli(["run", "--cwd", box.workspace, "Hi"], env);

    expect(r.code).toBe(1);
    expect(r.stderr).not.toMatch(RAW_CONTROL);
    expect(r.stdout).not.toMatch(RAW_CONTROL);
    expect(r.stderr).toContain(`verbatim: `);
    expect(r.stderr).toContain(SHOWN);
  });

  test("under --json the error keeps the provider's exact text (JSON escapes it)", async () => {
    const box = sandbox();
    const server = fixtureServer();
    server.enqueue(chatKit.badRequest(`bad request ${HOSTILE}`));
    const env = { ...box.env, VERBATIM_MODEL: modelRef(chatKit), ...chatKit.env(server) };

    const r = await runCli(["run", "--json", "--cwd", box.workspace, "Hi"], env);

    expect(r.code).toBe(1);
    expect(r.stdout).not.toMatch(RAW_CONTROL);
    const last = JSON.parse(r.stdout.trim().split("\n").pop() as string) as { error: { message: string } };
    expect(last.error.message).toContain(HOSTILE);
  });

  test("run --session shows a recorded cwd with its escapes visible", async () => {
    const box = sandbox("scripted/plain");
    const cwd = join(box.root, `gone${HOSTILE}`);
    const journal = new SqliteJournal(join(box.home, "journal.db"));
    createSession(journal, "ses_hostile_cwd", cwd);
    await journal.close();

    const r = await runCli(["run", "--session", "ses_hostile_cwd", "Hi"], box.env, { cwd: box.workspace });

    expect(r.code).toBe(1);
    expect(r.stderr).not.toMatch(RAW_CONTROL);
    expect(r.stderr).toContain(`session ses_hostile_cwd ran in ${join(box.root, `gone${SHOWN}`)}`);
  });

  test("doctor's FAIL line shows a provider's error text with its escapes visible", async () => {
    const box = sandbox(modelRef(chatKit));
    const server = fixtureServer();
    server.enqueue({ status: 500, json: { error: { message: `broken ${HOSTILE}`, type: "server_error" } } });

    const r = await runCli(["doctor"], { ...box.env, ...chatKit.env(server) }, { cwd: box.workspace });

    expect(r.code).toBe(1);
    expect(r.stdout).toContain("FAIL  provider openai-chat: ");
    expect(r.stdout).not.toMatch(RAW_CONTROL);
    expect(r.stdout).toContain(SHOWN);
  });

  test("setup shows a server's model names with their escapes visible", async () => {
    const box = sandbox();
    box.env.VERBATIM_MODEL = "";
    const server = fixtureServer();
    server.enqueue({ status: 200, json: { object: "list", data: [{ id: `qwen3${HOSTILE}`, object: "model" }] } });
    const child = Bun.spawn([...agentCommand(), "setup"], {
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
      env: { ...process.env, ...box.env },
    });
    // An OpenAI-compatible server, no key, then the model it offered.
    child.stdin.write(`3\n${server.origin}/v1\n1\n\n`);
    await child.stdin.end();
    const [stdout, stderr, code] = await Promise.all([
      new Response(child.stdout).text(),
      new Response(child.stderr).text(),
      child.exited,
    ]);

    // The settings schema then refuses such a model id (exit 1): what matters here is what was shown.
    expect(code).toBe(1);
    expect(stdout + stderr).not.toMatch(RAW_CONTROL);
    expect(stdout).toContain(`The server's models: qwen3${SHOWN}`);
    expect(stdout).toContain(`Model [qwen3${SHOWN}]`);
  });
});
