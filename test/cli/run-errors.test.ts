/**
 * `verbatim run` when something is wrong: each error says what went wrong and what to do, in the
 * user's terms (never a JSON-RPC phrase or a stack), exits non-zero, and under --json ends stdout
 * with one `{"error": {code, message, data?}, sessionId?}` line.
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { lastJsonLine, runCli } from "../support/cli-process.ts";
import { sandbox } from "../support/workspace.ts";

const JSON_RPC_WORDS =
  /Internal error|Authentication required|Invalid params|Resource not found|Invalid request|SQLiteError|\n\s+at /;

/** A data home this process cannot write: a read-only folder, or for root (who may write anywhere) a folder of /sys. */
function readOnlyHome(root: string): string {
  if (process.getuid?.() === 0) return "/sys/verbatim-test-home";
  const dir = join(root, "read-only");
  mkdirSync(dir);
  chmodSync(dir, 0o500);
  return join(dir, "home");
}

describe("verbatim run: the journal", () => {
  test("a VERBATIM_HOME that is a file is named, with what to do", async () => {
    const box = sandbox("scripted/plain");
    const file = join(box.root, "not-a-folder");
    writeFileSync(file, "");
    const r = await runCli(["run", "--cwd", box.workspace, "Hi"], { ...box.env, VERBATIM_HOME: file });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${file} is a file, not a folder`);
    expect(r.stderr).toContain("VERBATIM_HOME");
    expect(r.stderr).not.toMatch(JSON_RPC_WORDS);
  });

  test("a home that cannot be written is named", async () => {
    const box = sandbox("scripted/plain");
    const home = readOnlyHome(box.root);
    const r = await runCli(["run", "--cwd", box.workspace, "Hi"], { ...box.env, VERBATIM_HOME: home });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(home);
    expect(r.stderr).toMatch(/cannot (create|write)/);
    expect(r.stderr).not.toMatch(JSON_RPC_WORDS);
  });

  test("--json: a journal problem is the last line, as an error object", async () => {
    const box = sandbox("scripted/plain");
    const file = join(box.root, "not-a-folder");
    writeFileSync(file, "");
    const r = await runCli(["run", "--json", "--cwd", box.workspace, "Hi"], { ...box.env, VERBATIM_HOME: file });
    expect(r.code).toBe(1);
    expect(lastJsonLine(r.stdout)).toEqual({
      error: {
        code: "journal_unavailable",
        message: expect.stringContaining("is a file, not a folder"),
        data: { path: file },
      },
    });
  });
});

describe("verbatim sessions, delete: the journal", () => {
  test("sessions with a VERBATIM_HOME that is a file fails, rather than saying there are none", async () => {
    const box = sandbox();
    const file = join(box.root, "not-a-folder");
    writeFileSync(file, "");
    const r = await runCli(["sessions"], { ...box.env, VERBATIM_HOME: file });
    expect(r.code).toBe(1);
    expect(r.stdout).not.toContain("no sessions");
    expect(r.stderr).toContain(`${file} is a file, not a folder`);
  });

  test("delete in a home that cannot be written says so, without a stack", async () => {
    const box = sandbox("scripted/plain");
    const home = readOnlyHome(box.root);
    const r = await runCli(["delete", "ses_0000000000aaaaaaaaaaaaaaaa"], { ...box.env, VERBATIM_HOME: home });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(home);
    expect(r.stderr).not.toMatch(JSON_RPC_WORDS);
  });

  test("a damaged journal is named as damaged, with the file", async () => {
    const box = sandbox("scripted/plain");
    mkdirSync(box.home, { recursive: true });
    writeFileSync(
      join(box.home, "journal.db"),
      "this is not a database, it is a text file of some length ".repeat(100),
    );
    const r = await runCli(["run", "--cwd", box.workspace, "Hi"], box.env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(join(box.home, "journal.db"));
    expect(r.stderr).toContain("damaged");
    expect(r.stderr).not.toMatch(JSON_RPC_WORDS);
  });
});

describe("verbatim run: the working directory", () => {
  test("a --cwd that does not exist is refused before anything is recorded", async () => {
    const box = sandbox("scripted/plain");
    const missing = join(box.root, "nowhere");
    const r = await runCli(["run", "--cwd", missing, "Hi"], box.env);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--cwd ${missing}: there is no such folder`);
    expect((await runCli(["sessions"], box.env)).stdout.trim()).toBe("no sessions");
  });

  test("a --cwd that is a file is refused", async () => {
    const box = sandbox("scripted/plain");
    const r = await runCli(["run", "--cwd", join(box.workspace, "README.md"), "Hi"], box.env);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("is a file, not a folder");
  });
});

describe("verbatim run: errors in the user's words", () => {
  test("a misspelt provider names the provider, not authentication", async () => {
    const box = sandbox("anthropc/claude-sonnet-4-6");
    const r = await runCli(["run", "--cwd", box.workspace, "Hi"], box.env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('no provider is named "anthropc"');
    expect(r.stderr).not.toMatch(JSON_RPC_WORDS);
  });

  test("--json: a configuration error is the last line of stdout", async () => {
    const box = sandbox("anthropc/claude-sonnet-4-6");
    const r = await runCli(["run", "--json", "--cwd", box.workspace, "Hi"], box.env);
    expect(r.code).toBe(1);
    const last = lastJsonLine(r.stdout);
    expect(last).toEqual({
      error: { code: "no_provider", message: expect.stringContaining('no provider is named "anthropc"') },
    });
  });

  test("a bad session id is refused, and no continuation is suggested", async () => {
    const box = sandbox("scripted/plain");
    const r = await runCli(["run", "--session", "../../etc/passwd", "--cwd", box.workspace, "Hi"], box.env);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('"../../etc/passwd" is not a session id');
    expect(r.stderr).toContain("verbatim sessions");
    expect(r.stderr).not.toContain("continue with");
  });

  test("an unknown session says so and how to find one; --json carries no session id for it", async () => {
    const box = sandbox("scripted/plain");
    const r = await runCli(["run", "--json", "--session", "ses_nothere", "--cwd", box.workspace, "Hi"], box.env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("there is no session ses_nothere");
    expect(r.stderr).not.toContain("continue with");
    expect(lastJsonLine(r.stdout)).toEqual({
      error: {
        code: "session_not_found",
        message: expect.stringContaining("ses_nothere"),
        data: { sessionId: "ses_nothere" },
      },
    });
  });

  test("--json: a failed turn ends with an error object naming the session", async () => {
    const box = sandbox("scripted/error");
    const r = await runCli(["run", "--json", "--cwd", box.workspace, "Go"], box.env);
    expect(r.code).toBe(1);
    const last = lastJsonLine(r.stdout);
    expect(last).toEqual({
      error: { code: "turn_failed", message: expect.any(String) },
      sessionId: expect.stringMatching(/^ses_/),
    });
    expect((last.error as { message: string }).message).not.toMatch(JSON_RPC_WORDS);
  });
});

describe("verbatim run: bad arguments", () => {
  test("a bad --approve value says which values there are", async () => {
    const box = sandbox("scripted/plain");
    const r = await runCli(["run", "--approve=always", "Go"], box.env);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--approve takes all, edits or none, not "always"');
  });

  test("no prompt and nothing on stdin says the prompt is missing", async () => {
    const box = sandbox("scripted/plain");
    const r = await runCli(["run", "--cwd", box.workspace], box.env, { stdin: "" });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("no prompt");
  });

  test('--session "" is refused rather than starting a new session', async () => {
    const box = sandbox("scripted/plain");
    const r = await runCli(["run", "--session", "", "--cwd", box.workspace, "Hi"], box.env);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--session needs a session id");
    expect((await runCli(["sessions"], box.env)).stdout.trim()).toBe("no sessions");
  });

  test("two prompts say to quote the prompt", async () => {
    const box = sandbox("scripted/plain");
    const r = await runCli(["run", "--cwd", box.workspace, "fix", "it"], box.env);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("quote it");
  });

  test("--json: a usage error is the last line of stdout", async () => {
    const box = sandbox("scripted/plain");
    const r = await runCli(["run", "--json", "--approve", "maybe", "Go"], box.env);
    expect(r.code).toBe(2);
    expect(lastJsonLine(r.stdout)).toEqual({ error: { code: "usage", message: expect.stringContaining("--approve") } });
  });
});
