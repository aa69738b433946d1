/**
 * A crash leaves calls open: load marks them interrupted without writing (only when no live
 * process holds the session), and when the session continues the next turn journals what the
 * model is told about them.
 */
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Fact } from "../../src/journal/facts/index.ts";
import { SqliteJournal } from "../../src/journal/sqlite-store.ts";
import { conversation } from "../../src/replay/conversation.ts";
import { fold } from "../../src/view/view-model.ts";
import { connectProcess, load, prompt } from "../support/acp-session.ts";
import { dumpDatabase } from "../support/db-dump.ts";
import { startFact } from "../support/journal.ts";
import { sandbox } from "../support/workspace.ts";

const READ = { file_path: "/w/README.md" };

/** A journal as a process left it when it died: one call running, one waiting for permission. */
function crashedSession(home: string, cwd: string, ownerPid: number): string {
  const journal = new SqliteJournal(join(home, "journal.db"));
  const sessionId = "ses_crashed";
  const at = new Date().toISOString();
  journal.create({ sessionId, cwd, additionalDirectories: [], createdAt: at, updatedAt: at }, startFact(cwd));
  const facts: Fact[] = [
    {
      kind: "prompt_received",
      turnId: "turn_1",
      messageId: "msg_user",
      blocks: [{ type: "text", text: "Read it twice" }],
    },
    { kind: "message_chunk", stepId: "step_1", messageId: "msg_answer", stream: "answer", text: "Reading." },
    {
      kind: "step_ended",
      turnId: "turn_1",
      stepId: "step_1",
      model: { provider: "scripted", model: "plain" },
      outcome: "completed",
      stopReason: "tool_use",
      calls: [
        { toolCallId: "call_running", providerCallId: "p1", name: "Read", input: READ },
        { toolCallId: "call_asking", providerCallId: "p2", name: "Read", input: READ },
      ],
    },
    {
      kind: "tool_call_announced",
      toolCallId: "call_running",
      name: "Read",
      title: "Read README",
      toolKind: "read",
      rawInput: READ,
      locations: [{ path: READ.file_path, line: 1 }],
      content: [],
    },
    {
      kind: "tool_call_announced",
      toolCallId: "call_asking",
      name: "Read",
      title: "Read README",
      toolKind: "read",
      rawInput: READ,
      locations: [{ path: READ.file_path, line: 1 }],
      content: [],
    },
    { kind: "tool_call_started", toolCallId: "call_running" },
    {
      kind: "permission_requested",
      requestId: "perm_1",
      toolCallId: "call_asking",
      options: [{ optionId: "allow", name: "Allow", kind: "allow_once" }],
    },
  ];
  facts.forEach((fact, i) => journal.append(sessionId, i + 2, fact, at));
  journal.close();
  const db = new Database(join(home, "journal.db"));
  db.run("UPDATE leases SET pid = ?, start_time = '' WHERE session_id = ?", [ownerPid, sessionId]);
  db.close();
  return sessionId;
}

const interrupted = (card: { meta?: Record<string, unknown> } | undefined) =>
  (card?.meta as { verbatim?: { interrupted?: { mayHaveRun: boolean } } } | undefined)?.verbatim?.interrupted;

describe("continuing after a crash", () => {
  test("load marks open calls interrupted, writes nothing, and the next turn journals what the model is told", async () => {
    const box = sandbox("scripted/plain");
    const dead = Bun.spawn(["true"]);
    await dead.exited;
    const sessionId = crashedSession(box.home, box.workspace, dead.pid);
    const before = dumpDatabase(join(box.home, "journal.db"));

    const first = await connectProcess(box.env);
    let marked;
    try {
      await load(first.ctx, sessionId, box.workspace);
      marked = first.client.view(sessionId);
      expect(interrupted(marked.toolCalls.call_running)).toEqual({ mayHaveRun: true });
      expect(interrupted(marked.toolCalls.call_asking)).toEqual({ mayHaveRun: false });
      expect(marked.toolCalls.call_running?.status).toBe("failed");
      expect(dumpDatabase(join(box.home, "journal.db"))).toEqual(before);
      expect((await prompt(first.ctx, sessionId, "Go on")).stopReason).toBe("end_turn");
    } finally {
      await first.close();
    }

    const journal = new SqliteJournal(join(box.home, "journal.db"));
    const facts = [...journal.read(sessionId)].map((r) => r.fact);
    journal.close();
    const recovered = facts.find((f) => f.kind === "session_recovered");
    expect(recovered).toMatchObject({
      interruptedTurnId: "turn_1",
      calls: [
        { toolCallId: "call_running", mayHaveRun: true },
        { toolCallId: "call_asking", mayHaveRun: false },
      ],
    });
    const toolResults = conversation(facts).find((m) => m.role === "tool_results");
    expect(toolResults).toMatchObject({
      results: [
        { providerCallId: "p1", isError: true, text: expect.stringContaining("outcome is unknown") },
        { providerCallId: "p2", isError: true, text: expect.stringContaining("never ran") },
      ],
    });

    // A later reload shows the recorded recovery exactly where the load-time marks were.
    const second = await connectProcess(box.env);
    try {
      await load(second.ctx, sessionId, box.workspace);
      const view = second.client.view(sessionId);
      expect(view.toolCalls.call_running).toEqual(marked.toolCalls.call_running!);
      expect(view.toolCalls.call_asking).toEqual(marked.toolCalls.call_asking!);
    } finally {
      await second.close();
    }
  });

  test("no interruption marks while a live process still holds the session", async () => {
    const box = sandbox("scripted/plain");
    const owner = Bun.spawn(["sleep", "30"]);
    try {
      const sessionId = crashedSession(box.home, box.workspace, owner.pid);
      const c = await connectProcess(box.env);
      try {
        await load(c.ctx, sessionId, box.workspace);
        const view = fold(c.client.notifications.map((n) => n.update));
        expect(view.toolCalls.call_running?.status).toBe("in_progress");
        expect(interrupted(view.toolCalls.call_running)).toBeUndefined();
        const error = await prompt(c.ctx, sessionId, "Mine now?").then(
          () => undefined,
          (e: { code: number; message: string }) => e,
        );
        expect(error?.code).toBe(-32600);
        expect(error?.message).toContain(`pid ${owner.pid}`);
      } finally {
        await c.close();
      }
    } finally {
      owner.kill(9);
      await owner.exited;
    }
  });
});
