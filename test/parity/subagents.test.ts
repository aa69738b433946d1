/**
 * Subagents: a `Task` call runs a child agent loop in its own child session. The parent's card
 * shows the child's progress (its tool calls, questions and answers) and links to the child; the
 * child's facts are in its own journal; a child's permission question is the child's.
 */
import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, test } from "bun:test";
import { choose } from "../../src/client/view-client.ts";
import { journalFile } from "../../src/journal/paths.ts";
import { SqliteJournal } from "../../src/journal/sqlite-store.ts";
import { connectProcess, load, prompt, until } from "../support/acp-session.ts";
import { textOf } from "../support/cards.ts";
import type { Sandbox } from "../support/workspace.ts";
import { cards, parity, texts } from "./harness.ts";

type Linkage = {
  verbatim?: { subagent?: { sessionId: string; subagentType: string; description: string } };
  subagent_session_info?: { session_id: string };
};

const childOf = (card: { meta?: Record<string, unknown> } | undefined) =>
  (card?.meta as Linkage | undefined)?.verbatim?.subagent?.sessionId;

async function childFacts(box: Sandbox, sessionId: string) {
  const journal = new SqliteJournal(journalFile(box.home));
  try {
    return { info: await journal.info(sessionId), facts: [...journal.read(sessionId)].map((r) => r.fact) };
  } finally {
    journal.closeNow();
  }
}

describe("subagents", () => {
  test("a subagent's nested tool call is shown inside the Task card, and reopened identically", async () => {
    const r = await parity("scripted/subagent", async ({ ctx, sessionId }) => {
      expect((await prompt(ctx, sessionId, "Look at the README")).stopReason).toBe("end_turn");
    });
    const all = cards(r.live);
    expect(all.length).toBe(1);
    const [task] = all;
    expect(task).toMatchObject({ name: "Task", title: "Task: Inspect the README", status: "completed" });
    expect(task?.rawInput).toEqual({
      description: "Inspect the README",
      prompt: "Look at the README",
      subagent_type: "general-purpose",
    });
    // The child's answer of each step, then the calls that step made, as the child went.
    expect(textOf(task?.content)).toBe(
      `Reading the README. \n✓ Read ${r.box.workspace}/README.md\nREADME.md has 4 lines.`,
    );
    const child = childOf(task);
    expect(child).toMatch(/^ses_/);
    expect(child).not.toBe(r.sessionId);
    expect((task?.meta as Linkage).subagent_session_info).toEqual({ session_id: child! });
    expect((task?.meta as Linkage).verbatim?.subagent).toEqual({
      sessionId: child!,
      subagentType: "general-purpose",
      description: "Inspect the README",
    });
    expect(texts(r.live, "agent").at(-1)).toBe("The subagent reported: README.md has 4 lines.");
    expect(r.differences).toEqual([]);
  });

  test("the child session has its own journal records, names its parent, and is not listed", async () => {
    const r = await parity("scripted/subagent", async ({ ctx, sessionId }) => {
      await prompt(ctx, sessionId, "Look at the README");
      const list = await ctx.request(acp.methods.agent.session.list, {});
      expect(list.sessions.map((s) => s.sessionId)).toEqual([sessionId]);
    });
    const child = childOf(cards(r.live)[0])!;
    const { info, facts } = await childFacts(r.box, child);
    expect(info?.parentSessionId).toBe(r.sessionId);
    expect(facts[0]).toMatchObject({ kind: "session_started", parentSessionId: r.sessionId });
    const started = facts[0]?.kind === "session_started" ? facts[0] : undefined;
    expect(started?.tools.map((t) => t.name)).not.toContain("Task");
    expect(started?.tools.map((t) => t.name)).not.toContain("AskUserQuestion");
    expect(started?.systemPrompt).toContain("You are a subagent of verbatim");
    expect(
      facts.filter((f) => f.kind === "tool_call_announced").map((f) => f.kind === "tool_call_announced" && f.name),
    ).toEqual(["Read"]);
    // The parent's journal holds no fact of the child's calls: only its own card's progress.
    const parent = (await childFacts(r.box, r.sessionId)).facts;
    expect(
      parent.filter((f) => f.kind === "tool_call_announced").map((f) => f.kind === "tool_call_announced" && f.name),
    ).toEqual(["Task"]);
  });

  test("the child session can be opened on its own and shows the subagent's work", async () => {
    const r = await parity("scripted/subagent", async ({ ctx, sessionId }) => {
      await prompt(ctx, sessionId, "Look at the README");
    });
    const child = childOf(cards(r.live)[0])!;
    const c = await connectProcess(r.box.env);
    try {
      await load(c.ctx, child, r.box.workspace);
      const view = c.client.view(child);
      expect(texts(view, "user")).toEqual(["Look at the README"]);
      expect(cards(view).map((k) => [k.name, k.status])).toEqual([["Read", "completed"]]);
      expect(texts(view, "agent").at(-1)).toBe("README.md has 4 lines.");
    } finally {
      await c.close();
    }
  });

  test("a child's permission question is marked as the child's, asked about the Task card", async () => {
    let question: acp.RequestPermissionRequest | undefined;
    const r = await parity(
      "scripted/subagent",
      async ({ ctx, sessionId, client }) => {
        await prompt(ctx, sessionId, "Look at the README and run a command");
        expect(client.permissionRequests.length).toBe(1);
        question = client.permissionRequests[0];
      },
      { policy: choose("allow_once") },
    );
    const [task] = cards(r.live);
    const child = childOf(task)!;
    const origin = (question?._meta as { verbatim?: Record<string, unknown> } | undefined)?.verbatim;
    expect(question?.sessionId).toBe(r.sessionId);
    expect(question?.toolCall.toolCallId).toBe(task!.toolCallId);
    expect(textOf(question?.toolCall.content ?? [])).toContain("wc -l README.md — Waiting for permission.");
    expect(origin?.originSessionId).toBe(child);
    expect(origin?.originSessionId).not.toBe(r.sessionId);
    expect(origin?.parentToolCallId).toBe(task!.toolCallId);
    const { facts } = await childFacts(r.box, child);
    const asked = facts.find((f) => f.kind === "permission_requested");
    expect(asked).toBeDefined();
    const bash = facts.find((f) => f.kind === "tool_call_announced" && f.name === "Bash");
    expect(asked?.kind === "permission_requested" && asked.toolCallId).toBe(
      bash?.kind === "tool_call_announced" ? bash.toolCallId : "",
    );
    expect(origin?.originToolCallId).toBe(bash?.kind === "tool_call_announced" ? bash.toolCallId : "");
    // The root session's journal has no permission question: it was the child's.
    expect((await childFacts(r.box, r.sessionId)).facts.some((f) => f.kind === "permission_requested")).toBe(false);
    expect(textOf(task?.content)).toContain("✓ wc -l README.md — Permission: Allow (allowed once).");
    expect(texts(r.live, "agent").at(-1)).toContain("The subagent reported: The command says: 4 README.md");
    expect(r.differences).toEqual([]);
  });

  test("a cancel while the child waits for permission ends the child's turn and the parent's, both cancelled", async () => {
    const r = await parity(
      "scripted/subagent",
      async ({ ctx, sessionId, client }) => {
        const turn = prompt(ctx, sessionId, "Look at the README and run a command");
        await until(() => client.permissionRequests.length === 1, "the child's question");
        await ctx.notify(acp.methods.agent.session.cancel, { sessionId });
        expect((await turn).stopReason).toBe("cancelled");
      },
      { policy: () => new Promise(() => {}) },
    );
    const [task] = cards(r.live);
    expect(task?.status).toBe("failed");
    expect(textOf(task?.content)).toContain("wc -l README.md — Not run: cancelled before it ran");
    const { facts } = await childFacts(r.box, childOf(task)!);
    expect(facts.at(-1)).toMatchObject({ kind: "turn_ended", stopReason: "cancelled" });
    expect(facts.some((f) => f.kind === "permission_answered" && f.outcome.outcome === "cancelled")).toBe(true);
    expect(r.differences).toEqual([]);
  });

  test("deleting a session deletes its subagents' sessions too", async () => {
    const r = await parity("scripted/subagent", async ({ ctx, sessionId }) => {
      await prompt(ctx, sessionId, "Look at the README");
    });
    const child = childOf(cards(r.live)[0])!;
    const c = await connectProcess(r.box.env);
    try {
      await c.ctx.request(acp.methods.agent.session.delete, { sessionId: r.sessionId });
    } finally {
      await c.close();
    }
    const journal = new SqliteJournal(journalFile(r.box.home));
    try {
      expect(await journal.info(r.sessionId)).toBeUndefined();
      expect(await journal.info(child)).toBeUndefined();
    } finally {
      journal.close();
    }
  });
});
