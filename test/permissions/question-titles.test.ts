/**
 * A permission question names the call it gates. A client may show `session/request_permission`
 * by its `toolCall.title` alone, so that title is the waiting call's: the card's own for a call of
 * the session, and for a subagent's call (asked about the parent's `Task` card, the one card the
 * client knows) the call's tool and title with the subagent named. The update the question's fact
 * projects mirrors the request's `toolCall`, live and on reload alike.
 */
import type { RequestPermissionRequest, SessionNotification } from "@agentclientprotocol/sdk";
import { describe, expect, test } from "bun:test";
import { choose } from "../../src/client/view-client.ts";
import { prompt } from "../support/acp-session.ts";
import { cards, parity } from "../parity/harness.ts";

/** The `tool_call_update`s a client was sent for one card, in order. */
const updatesOf = (notifications: SessionNotification[], toolCallId: string) =>
  notifications
    .map((n) => n.update)
    .filter(
      (u): u is Extract<typeof u, { sessionUpdate: "tool_call_update" }> =>
        u.sessionUpdate === "tool_call_update" && u.toolCallId === toolCallId,
    );

/** The update mirroring a question: the request's `toolCall` as a `tool_call_update`. */
const mirrorOf = (question: RequestPermissionRequest) => ({
  sessionUpdate: "tool_call_update" as const,
  ...question.toolCall,
});

describe("a permission question's title", () => {
  test("is the title of the session's own call it asks about, live and on reload", async () => {
    const questions: RequestPermissionRequest[] = [];
    const r = await parity(
      "scripted/call",
      async ({ ctx, sessionId, client }) => {
        await prompt(ctx, sessionId, 'Bash {"command": "wc -l README.md", "description": "Count lines"}');
        questions.push(...client.permissionRequests);
      },
      { policy: choose("allow_once") },
    );
    expect(questions.length).toBe(1);
    const [bash] = cards(r.live);
    expect(bash?.name).toBe("Bash");
    expect(questions[0]?.toolCall.toolCallId).toBe(bash!.toolCallId);
    expect(questions[0]?.toolCall.title).toBe("wc -l README.md");
    expect(updatesOf(r.liveNotifications, bash!.toolCallId)).toContainEqual(mirrorOf(questions[0]!));
    expect(updatesOf(r.reloadNotifications, bash!.toolCallId)).toContainEqual(mirrorOf(questions[0]!));
    expect(r.differences).toEqual([]);
  });

  test("names a subagent's waiting call and the subagent, not the Task it runs under", async () => {
    const questions: RequestPermissionRequest[] = [];
    const r = await parity(
      "scripted/subagent",
      async ({ ctx, sessionId, client }) => {
        await prompt(ctx, sessionId, "Look at the README and run a command");
        questions.push(...client.permissionRequests);
      },
      { policy: choose("allow_once") },
    );
    expect(questions.length).toBe(1);
    const [task] = cards(r.live);
    const question = questions[0]!;
    expect(question.toolCall.toolCallId).toBe(task!.toolCallId);
    expect(question.toolCall.title).toBe("Bash: wc -l README.md (subagent: general-purpose)");
    // The card said so while the question was open, and says so again on reload, in the same place.
    const live = updatesOf(r.liveNotifications, task!.toolCallId);
    const reloaded = updatesOf(r.reloadNotifications, task!.toolCallId);
    expect(live).toContainEqual(mirrorOf(question));
    expect(reloaded).toContainEqual(mirrorOf(question));
    expect(reloaded.findIndex((u) => u.title === question.toolCall.title)).toBe(
      live.findIndex((u) => u.title === question.toolCall.title),
    );
    // Once answered, the card has its own title back.
    expect(live.findLast((u) => u.title != null)?.title).toBe("Task: Inspect the README");
    expect(task?.title).toBe("Task: Inspect the README");
    expect(r.differences).toEqual([]);
  });

  test("a refused subagent call gives the Task card its own title back too", async () => {
    const questions: RequestPermissionRequest[] = [];
    const r = await parity(
      "scripted/subagent",
      async ({ ctx, sessionId, client }) => {
        await prompt(ctx, sessionId, "Look at the README and run a command");
        questions.push(...client.permissionRequests);
      },
      { policy: choose("reject_once") },
    );
    expect(questions.map((q) => q.toolCall.title)).toEqual(["Bash: wc -l README.md (subagent: general-purpose)"]);
    const [task] = cards(r.live);
    expect(task?.title).toBe("Task: Inspect the README");
    expect(cards(r.reloaded)[0]?.title).toBe("Task: Inspect the README");
    expect(r.differences).toEqual([]);
  });
});
