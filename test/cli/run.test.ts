/** `verbatim run`: one prompt headless, with an exit code that tells how the turn ended. */
import { describe, expect, test } from "bun:test";
import { existsSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { runCli } from "../support/cli-process.ts";
import { sandbox } from "../support/workspace.ts";

describe("verbatim run", () => {
  test("end_turn exits 0, prints the transcript and the session id", async () => {
    const box = sandbox("scripted/plain");
    const r = await runCli(["run", "--cwd", box.workspace, "Hello"], box.env);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Every word you see here is recorded");
    expect(r.stderr).toMatch(/session ses_[0-9a-z]+ \(the turn ended\)/);
  });

  test("--json prints one JSON object per line, ending with the session id, the stop reason and the prompt's and the answer's message ids", async () => {
    const box = sandbox("scripted/tool");
    const r = await runCli(["run", "--json", "--cwd", box.workspace, "Read it"], box.env);
    expect(r.code).toBe(0);
    const lines = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.length).toBeGreaterThan(10);
    expect(lines.slice(0, -1).every((l) => typeof l.sessionId === "string" && typeof l.update === "object")).toBe(true);
    expect(lines[lines.length - 1]).toEqual({
      sessionId: expect.stringMatching(/^ses_/),
      stopReason: "end_turn",
      messageId: expect.stringMatching(/^msg_/),
      lastMessageId: expect.stringMatching(/^msg_/),
    });
  });

  test("--session continues a session by id", async () => {
    const box = sandbox("scripted/plain");
    const first = await runCli(["run", "--json", "--cwd", box.workspace, "First"], box.env);
    const { sessionId } = JSON.parse(first.stdout.trim().split("\n").pop()!) as { sessionId: string };
    const second = await runCli(["run", "--session", sessionId, "--cwd", box.workspace, "Second"], box.env);
    expect(second.code).toBe(0);
    const shown = await runCli(["show", sessionId], box.env);
    expect(shown.stdout).toContain("> First");
    expect(shown.stdout).toContain("> Second");
  });

  test.each([
    ["scripted/refusal", 3],
    ["scripted/max-tokens", 4],
    ["scripted/error", 1],
  ])("%s exits %d", async (model, code) => {
    const box = sandbox(model);
    expect((await runCli(["run", "--cwd", box.workspace, "Go"], box.env)).code).toBe(code);
  });

  test("--max-turns N ends the turn after N model requests: exit 5, said in words", async () => {
    const box = sandbox("scripted/loop");
    const r = await runCli(["run", "--max-turns", "2", "--approve", "all", "--cwd", box.workspace, "Go"], box.env);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/session ses_[0-9a-z]+ \(stopped: the turn reached its request limit\)/);
    expect(r.stderr).not.toContain("max_turn_requests");
    const json = await runCli(["run", "--json", "--max-turns", "2", "--cwd", box.workspace, "Go"], box.env);
    const requests = json.stdout.split("\n").filter((l) => l.includes('"tool_call"')).length;
    expect(requests).toBe(2);
  });

  test("--max-turns takes a whole number of requests", async () => {
    const box = sandbox("scripted/loop");
    const r = await runCli(["run", "--max-turns", "two", "--cwd", box.workspace, "Go"], box.env);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--max-turns takes a whole number of model requests, at least 1, not "two"');
  });

  test("with no provider configured, the error names verbatim setup first", async () => {
    const box = sandbox("");
    const r = await runCli(["run", "--cwd", box.workspace, "Hi"], box.env);
    expect(r.code).toBe(1);
    expect(r.stderr).toStartWith("verbatim: No model provider is configured. Run `verbatim setup` to choose one");
  });

  test("SIGINT cancels the turn and exits 130, keeping what streamed", async () => {
    const box = sandbox("scripted/slow");
    const r = await runCli(["run", "--cwd", box.workspace, "Go"], box.env, {
      interruptWhen: (out) => out.includes("Here is a long"),
    });
    expect(r.code).toBe(130);
    expect(r.stderr).toContain("(cancelled)");
    const id = /session (ses_[0-9a-z]+)/.exec(r.stderr)?.[1];
    const shown = await runCli(["show", id!], box.env);
    expect(shown.stdout).toContain("Here is a long");
  });

  test("progress goes to stderr: each card as it starts, and how each permission was answered", async () => {
    const box = sandbox("scripted/edit");
    const allowed = await runCli(["run", "--approve", "all", "--cwd", box.workspace, "Fix it"], box.env);
    expect(allowed.stderr).toContain("▸ running: Edit ");
    expect(allowed.stderr).toMatch(/\? Edit \S+README\.md: Allow \(allow_once\) by --approve all/);
    expect(allowed.stdout).not.toContain("--approve");
    // A fresh workspace: the first run changed the line this edit replaces, so it could not apply (and would not be asked about).
    const fresh = sandbox("scripted/edit");
    const refused = await runCli(["run", "--cwd", fresh.workspace, "Fix it"], fresh.env);
    expect(refused.stderr).toMatch(/\? Edit \S+README\.md: Refuse \(reject_once\) by --approve none/);
  });

  test("a command running longer than ten seconds is reported while it runs", async () => {
    const box = sandbox("scripted/command");
    const r = await runCli(["run", "--approve", "all", "--cwd", box.workspace, "sleep 11; echo done"], box.env);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("sleep 11; echo done: running for 10s");
    expect(r.stderr).toMatch(/sleep 11; echo done: completed after 1\ds/);
  }, 60_000);

  test("--json keeps stdout to JSON lines while progress goes to stderr", async () => {
    const box = sandbox("scripted/edit");
    const r = await runCli(["run", "--json", "--approve", "all", "--cwd", box.workspace, "Fix it"], box.env);
    for (const line of r.stdout.trim().split("\n")) expect(() => JSON.parse(line)).not.toThrow();
    expect(r.stderr).toContain("▸ running: Edit ");
  });

  test("a bad --approve value is a usage error", async () => {
    const box = sandbox("scripted/plain");
    expect((await runCli(["run", "--approve", "maybe", "Go"], box.env)).code).toBe(2);
  });
});

describe("verbatim export and delete", () => {
  test("export prints its format line, then one record per line; delete removes the session", async () => {
    const box = sandbox("scripted/plain");
    const first = await runCli(["run", "--json", "--cwd", box.workspace, "Hi"], box.env);
    const { sessionId } = JSON.parse(first.stdout.trim().split("\n").pop()!) as { sessionId: string };
    const exported = await runCli(["export", sessionId], box.env);
    const [format, ...facts] = exported.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { seq: number; kind: string });
    expect(format).toMatchObject({ format: "verbatim-session-export", version: 1 });
    expect(facts[0]).toMatchObject({ seq: 1, kind: "session_started" });
    expect(facts.map((f) => f.seq)).toEqual(facts.map((_, i) => i + 1));
    expect((await runCli(["delete", sessionId], box.env)).code).toBe(0);
    expect((await runCli(["sessions"], box.env)).stdout.trim()).toBe("no sessions");
    expect((await runCli(["export", sessionId], box.env)).code).toBe(1);
  });
});

describe("verbatim run with the scripted edit scenario", () => {
  test("in a folder without the README it edits, it says what it needs", async () => {
    const box = sandbox("scripted/edit");
    rmSync(join(box.workspace, "README.md"));
    const r = await runCli(["run", "--approve", "all", "--cwd", box.workspace, "Fix it"], box.env);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      'The edit did not happen (It needs a README.md in the working directory with the lines "Line three." and "Line four."',
    );
    expect(existsSync(join(box.workspace, "README.md"))).toBe(false);
  });
});

describe("verbatim demo --keep", () => {
  test("says where the journal is and which session it made, so the session can be shown again", async () => {
    const r = await runCli(["demo", "--keep"], {});
    expect(r.code).toBe(0);
    const kept = /kept: the workspace (\S+), and the journal (\S+) holding session (ses_[0-9a-z]+)/.exec(r.stdout);
    expect(kept).not.toBeNull();
    const [, workspace, journal, sessionId] = kept as unknown as [string, string, string, string];
    try {
      expect(existsSync(journal)).toBe(true);
      const shown = await runCli(["show", sessionId], { VERBATIM_HOME: dirname(journal) });
      expect(shown.code).toBe(0);
      expect(shown.stdout).toContain("> Tidy up the README and tell me how big it is.");
    } finally {
      // The demo's temporary root holds both the workspace and the journal's folder.
      const root = dirname(workspace);
      if (basename(root).startsWith("verbatim-demo-")) rmSync(root, { recursive: true, force: true });
    }
  }, 60_000);
});
