/**
 * A permission question answered `cancelled` (ACP: the turn was cancelled before the user
 * answered; a client that cancels answers every open question so, then sends `session/cancel`)
 * ends the turn as cancelled, with no further model step, whether the `session/cancel` comes
 * before the answer, right after it, later, or never; a subagent's question so answered ends its
 * parent's turn too. A question the client failed to answer (an error response) fails only that
 * call, and its card says the client did not answer.
 */
import * as acp from "@agentclientprotocol/sdk";
import type { ClientContext, RequestPermissionResponse } from "@agentclientprotocol/sdk";
import { describe, expect, test } from "bun:test";
import type { PermissionPolicy } from "../../src/client/view-client.ts";
import type { Fact } from "../../src/journal/facts/index.ts";
import { journalFile } from "../../src/journal/paths.ts";
import { SqliteJournal } from "../../src/journal/sqlite-store.ts";
import { prompt } from "../support/acp-session.ts";
import { textOf } from "../support/cards.ts";
import type { Sandbox } from "../support/workspace.ts";
import { cards, parity } from "../parity/harness.ts";

const BASH = 'Bash {"command": "wc -l README.md", "description": "Count lines"}';
const CANCELLED: RequestPermissionResponse = { outcome: { outcome: "cancelled" } };

function factsOf(box: Sandbox, sessionId: string): Fact[] {
  const journal = new SqliteJournal(journalFile(box.home));
  try {
    return [...journal.read(sessionId)].map((r) => r.fact);
  } finally {
    journal.closeNow();
  }
}

/** What the session recorded after its question was answered: no model step, the turn ended cancelled. */
function expectEndedAtTheAnswer(facts: Fact[]): void {
  const answered = facts.findIndex((f) => f.kind === "permission_answered");
  expect(facts[answered]).toMatchObject({ outcome: { outcome: "cancelled" } });
  const after = facts.slice(answered + 1);
  expect(after.filter((f) => f.kind === "message_chunk" || f.kind === "step_ended")).toEqual([]);
  expect(after.map((f) => f.kind)).toEqual(["tool_call_refused", "turn_ended"]);
  expect(after.at(-1)).toMatchObject({ kind: "turn_ended", stopReason: "cancelled" });
}

/** A client that answers every question `cancelled` and sends `session/cancel` as `when` says. */
function cancelling(
  when: "never" | "before the answer" | "right after" | "20 ms after",
  run: () => { ctx: ClientContext; sessionId: string },
): PermissionPolicy {
  return async () => {
    const { ctx, sessionId } = run();
    const cancel = () => void ctx.notify(acp.methods.agent.session.cancel, { sessionId });
    if (when === "before the answer") cancel();
    else if (when === "right after") setTimeout(cancel, 0);
    else if (when === "20 ms after") setTimeout(cancel, 20);
    return CANCELLED;
  };
}

describe("a permission question answered cancelled", () => {
  for (const when of ["never", "before the answer", "right after", "20 ms after"] as const) {
    test(`ends the turn cancelled with no further model step (session/cancel: ${when})`, async () => {
      let current = { ctx: undefined as unknown as ClientContext, sessionId: "" };
      const r = await parity(
        "scripted/call",
        async ({ ctx, sessionId }) => {
          current = { ctx, sessionId };
          expect((await prompt(ctx, sessionId, BASH)).stopReason).toBe("cancelled");
          // A late session/cancel finds no turn to cancel, and starts nothing.
          await Bun.sleep(60);
        },
        { policy: cancelling(when, () => current) },
      );
      expectEndedAtTheAnswer(factsOf(r.box, r.sessionId));
      const [bash] = cards(r.live);
      expect(bash?.status).toBe("failed");
      expect(textOf(bash?.content)).toContain("Permission: the question was cancelled.");
      expect(r.differences).toEqual([]);
    });
  }

  test("for a subagent's question, ends the child's turn and the parent's, both cancelled", async () => {
    const r = await parity(
      "scripted/subagent",
      async ({ ctx, sessionId }) => {
        expect((await prompt(ctx, sessionId, "Look at the README and run a command")).stopReason).toBe("cancelled");
      },
      { policy: () => CANCELLED },
    );
    const [task] = cards(r.live);
    const child = (task?.meta as { verbatim?: { subagent?: { sessionId: string } } }).verbatim?.subagent?.sessionId;
    expectEndedAtTheAnswer(factsOf(r.box, child!));
    const parent = factsOf(r.box, r.sessionId);
    const taskEnd = parent.findIndex((f) => f.kind === "tool_call_finished" && f.toolCallId === task?.toolCallId);
    // After the Task call, the parent takes no further model step either.
    expect(parent.slice(taskEnd + 1).map((f) => f.kind)).toEqual(["turn_ended"]);
    expect(parent.at(-1)).toMatchObject({ kind: "turn_ended", stopReason: "cancelled" });
    expect(r.differences).toEqual([]);
  });
});

describe("a permission question the client failed to answer", () => {
  test("fails only that call, the turn goes on, and the card says the client did not answer", async () => {
    const r = await parity(
      "scripted/call",
      async ({ ctx, sessionId }) => {
        expect((await prompt(ctx, sessionId, BASH)).stopReason).toBe("end_turn");
      },
      {
        policy: () => {
          throw acp.RequestError.internalError(undefined, "the editor lost the question");
        },
      },
    );
    const [bash] = cards(r.live);
    expect(bash?.status).toBe("failed");
    const text = textOf(bash?.content);
    expect(text).toContain("Permission: not answered: the client's request failed");
    expect(text).not.toContain("the question was cancelled");
    const facts = factsOf(r.box, r.sessionId);
    expect(facts.at(-1)).toMatchObject({ kind: "turn_ended", stopReason: "end_turn" });
    expect(r.differences).toEqual([]);
  });
});
