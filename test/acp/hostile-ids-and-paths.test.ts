/**
 * Session ids and directory paths built to escape or break storage: traversal, absolute paths,
 * NUL bytes, separators, very long values. Every method that takes one refuses it with -32602
 * before it reaches storage, the journal is left byte for byte as it was, and the agent keeps
 * answering. The command line refuses the same ids.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "../support/cli-process.ts";
import { dumpDatabase, replayCacheSettled } from "../support/db-dump.ts";
import { initializedRawAgent, type RawAgent } from "../support/raw-client.ts";
import { sandbox } from "../support/workspace.ts";

export const HOSTILE_SESSION_IDS = [
  "../../etc/passwd",
  "..",
  ".",
  "/abs/path",
  "/",
  "dir/ses",
  "..\\..\\windows",
  "a\u0000b",
  "\u0000",
  "ses\u2028x",
  "ses x",
  "ses_ok\n",
  "",
  "-leading-dash",
  "ses_%2e%2e",
  "ses_\u00e9",
  "😀",
  "\ud800",
  "x".repeat(129),
  "x".repeat(100_000),
];

const HOSTILE_DIRECTORIES = [
  "relative",
  "",
  "./here",
  "../up",
  "~/home",
  "C:\\work",
  "/a\u0000b",
  "/tmp/a\tb",
  "/tmp/a\nb",
  "/tmp/\u001b]0;pwned\u0007",
  "/tmp/a\u009bb",
  `/${"a".repeat(5000)}`,
];

describe("hostile session ids over ACP", () => {
  const box = sandbox("scripted/plain");
  let agent: RawAgent;
  let sessionId: string;
  let before: Record<string, unknown[]>;
  beforeAll(async () => {
    agent = await initializedRawAgent(box.env);
    sessionId = (
      (await agent.request("session/new", { cwd: box.workspace, mcpServers: [] })).result as { sessionId: string }
    ).sessionId;
    await agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "hello" }] });
    await replayCacheSettled(join(box.home, "journal.db"), sessionId);
    before = dumpDatabase(join(box.home, "journal.db"));
  });
  afterAll(async () => {
    await agent.close();
  });

  const requests: Record<string, (id: string) => unknown> = {
    "session/load": (id) => ({ sessionId: id, cwd: box.workspace, mcpServers: [] }),
    "session/resume": (id) => ({ sessionId: id, cwd: box.workspace, mcpServers: [] }),
    "session/close": (id) => ({ sessionId: id }),
    "session/delete": (id) => ({ sessionId: id }),
    "session/prompt": (id) => ({ sessionId: id, prompt: [{ type: "text", text: "hi" }] }),
    "session/set_mode": (id) => ({ sessionId: id, modeId: "plan" }),
    "session/set_config_option": (id) => ({ sessionId: id, configId: "mode", value: "plan" }),
  };

  for (const [method, params] of Object.entries(requests)) {
    test(`${method} refuses each with -32602, naming the rule and echoing at most 200 characters of the id`, async () => {
      for (const id of HOSTILE_SESSION_IDS) {
        const reply = await agent.request(method, params(id));
        expect({ id: id.slice(0, 40), code: reply.error?.code }).toEqual({ id: id.slice(0, 40), code: -32602 });
        expect(reply.error?.message).toContain("session ids contain only letters, digits");
        expect(((reply.error?.data as { sessionId?: string }).sessionId ?? "").length).toBeLessThanOrEqual(200);
      }
    });
  }

  test("session/cancel with each is ignored, and the agent keeps answering", async () => {
    for (const id of HOSTILE_SESSION_IDS)
      await agent.send(JSON.stringify({ jsonrpc: "2.0", method: "session/cancel", params: { sessionId: id } }));
    const list = await agent.request("session/list", {});
    expect((list.result as { sessions: { sessionId: string }[] }).sessions.map((s) => s.sessionId)).toEqual([
      sessionId,
    ]);
  });

  test("none of them changed the journal", () => {
    expect(dumpDatabase(join(box.home, "journal.db"))).toEqual(before);
  }, 30_000);
});

describe("hostile directories over ACP", () => {
  const box = sandbox("scripted/plain");
  let agent: RawAgent;
  let sessionId: string;
  let before: Record<string, unknown[]>;
  beforeAll(async () => {
    agent = await initializedRawAgent(box.env);
    sessionId = (
      (await agent.request("session/new", { cwd: box.workspace, mcpServers: [] })).result as { sessionId: string }
    ).sessionId;
    // The new session records its slash commands after answering: the journal is still once they are out.
    await agent.until(() => agent.messages.some((m) => m.method === "session/update"), "the session's commands");
    before = dumpDatabase(join(box.home, "journal.db"));
  });
  afterAll(async () => {
    await agent.close();
  });

  const places: Record<string, (dir: string) => [string, unknown]> = {
    "session/new cwd": (dir) => ["session/new", { cwd: dir, mcpServers: [] }],
    "session/new additionalDirectories": (dir) => [
      "session/new",
      { cwd: box.workspace, additionalDirectories: [box.workspace, dir], mcpServers: [] },
    ],
    "session/load cwd": (dir) => ["session/load", { sessionId, cwd: dir, mcpServers: [] }],
    "session/load additionalDirectories": (dir) => [
      "session/load",
      { sessionId, cwd: box.workspace, additionalDirectories: [dir], mcpServers: [] },
    ],
    "session/resume cwd": (dir) => ["session/resume", { sessionId, cwd: dir, mcpServers: [] }],
    "session/resume additionalDirectories": (dir) => [
      "session/resume",
      { sessionId, cwd: box.workspace, additionalDirectories: [dir], mcpServers: [] },
    ],
    "session/list cwd": (dir) => ["session/list", { cwd: dir }],
  };

  for (const [place, build] of Object.entries(places)) {
    test(`${place} refuses relative, overlong and control-character-holding paths (NUL, tab, newline, escapes) with -32602`, async () => {
      for (const dir of HOSTILE_DIRECTORIES) {
        const [method, params] = build(dir);
        const reply = await agent.request(method, params);
        expect({ dir: dir.slice(0, 40), code: reply.error?.code }).toEqual({ dir: dir.slice(0, 40), code: -32602 });
        expect(reply.error?.message).toMatch(
          /directories must be absolute paths|directory paths are at most 4096 characters|directory paths hold no control characters/,
        );
      }
    });
  }

  test("none of them created a session or changed the journal", () => {
    expect(dumpDatabase(join(box.home, "journal.db"))).toEqual(before);
  }, 30_000);
});

describe("hostile session ids on the command line", () => {
  // NUL cannot be passed in an argument; each run is a process, so a few of each sort.
  const ids = ["../../etc/passwd", "/abs/path", "dir/ses", "..", "ses\u2028x", "-leading-dash", "x".repeat(5000)];

  for (const command of ["show", "export", "delete"]) {
    test(`verbatim ${command} refuses each (exit 2) and creates no journal`, async () => {
      const box = sandbox("scripted/plain");
      for (const id of ids) {
        const result = await runCli([command, "--", id], box.env);
        expect({ id: id.slice(0, 40), code: result.code, stdout: result.stdout }).toEqual({
          id: id.slice(0, 40),
          code: 2,
          stdout: "",
        });
        expect(result.stderr).toContain("is not a session id");
      }
      expect(existsSync(join(box.home, "journal.db"))).toBe(false);
    }, 30_000);
  }

  test("verbatim delete with a hostile id leaves an existing journal as it was", async () => {
    const box = sandbox("scripted/plain");
    const agent = await initializedRawAgent(box.env);
    try {
      await agent.request("session/new", { cwd: box.workspace, mcpServers: [] });
    } finally {
      await agent.close();
    }
    const before = dumpDatabase(join(box.home, "journal.db"));
    for (const id of ["../journal", "/etc/passwd", "x".repeat(129)])
      expect((await runCli(["delete", "--", id], box.env)).code).toBe(2);
    expect(dumpDatabase(join(box.home, "journal.db"))).toEqual(before);
  }, 30_000);
});
