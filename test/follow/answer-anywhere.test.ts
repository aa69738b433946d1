/**
 * A permission question answered from any controller: the writer's own client and a client
 * attached as a controller through another verbatim process are both asked; the first answer holds
 * (a compare-and-set in the journal), the other client's question is withdrawn, and every client's
 * card says how it was answered and, when it was not the writer's client, by whom.
 */
import { describe, expect, test } from "bun:test";
import type { RequestPermissionResponse } from "@agentclientprotocol/sdk";
import { choose, type PermissionPolicy } from "../../src/client/view-client.ts";
import { openJournal } from "../../src/core/config/open-journal.ts";
import { connectProcess, newSession, prompt, until, type Connected } from "../support/acp-session.ts";
import { attach, expectReloadShows, expectSameView } from "../support/attach.ts";
import { textOf } from "../support/cards.ts";
import { ClientServices } from "../support/client-services.ts";
import { askPrompt, databaseQuestion } from "../support/questions.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";

/** A policy that answers `kind` once `release` is called (never, if it is not). */
function heldAnswer(kind: "allow_once" | "reject_once") {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const policy: PermissionPolicy = async (request): Promise<RequestPermissionResponse> => {
    await released;
    return choose(kind)(request);
  };
  return { policy, release: () => release() };
}

const never: PermissionPolicy = () => new Promise(() => {});

async function clients(box: Sandbox, writerPolicy: PermissionPolicy, followerPolicy: PermissionPolicy) {
  const writer = await connectProcess(box.env, { policy: writerPolicy });
  const follower = await connectProcess(box.env, { policy: followerPolicy });
  const { sessionId } = await newSession(writer.ctx, box.workspace);
  await attach(follower.ctx, { sessionId, role: "controller" });
  return { writer, follower, sessionId, close: () => Promise.all([writer.close(), follower.close()]) };
}

const cardText = (c: Connected, sessionId: string) =>
  Object.values(c.client.view(sessionId).toolCalls)
    .map((card) => textOf(card.content ?? []))
    .join("\n");

describe("a permission question of a followed session", () => {
  test("answered by a controller: its answer holds, the writer's client's question is withdrawn, and the card names who answered", async () => {
    const box = sandbox("scripted/command");
    const c = await clients(box, never, choose("allow_once"));
    try {
      await prompt(c.writer.ctx, c.sessionId, "echo answered-elsewhere");
      expect(c.writer.client.permissionRequests).toHaveLength(1);
      expect(c.follower.client.permissionRequests).toHaveLength(1);
      await expectSameView(c.writer, c.follower, c.sessionId);
      const shown = cardText(c.writer, c.sessionId);
      expect(shown).toContain(`Answered from another client (pid ${c.follower.agent!.pid} on `);
      expect(shown).toContain("answered-elsewhere");
      await expectReloadShows(box, c.follower, c.sessionId);
    } finally {
      await c.close();
    }
  }, 60_000);

  test("answered by the writer's client first: the controller's question is withdrawn, and its answer comes to nothing", async () => {
    const box = sandbox("scripted/command");
    const writerAnswer = heldAnswer("reject_once");
    const c = await clients(box, writerAnswer.policy, never);
    try {
      const turn = prompt(c.writer.ctx, c.sessionId, "echo never-runs");
      await until(() => c.follower.client.permissionRequests.length === 1, "the controller to be asked too");
      writerAnswer.release();
      await turn;
      await expectSameView(c.writer, c.follower, c.sessionId);
      const shown = cardText(c.follower, c.sessionId);
      expect(shown).toContain("Permission: Refuse (refused).");
      expect(shown).not.toContain("Answered from another client");
      const store = openJournal(box.env);
      try {
        const requestId = (c.follower.client.permissionRequests[0]!._meta?.verbatim as { requestId: string }).requestId;
        expect((await store.answerClaimOf(c.sessionId, requestId))?.by.pid).toBe(c.writer.agent!.pid);
      } finally {
        await store.close();
      }
    } finally {
      await c.close();
    }
  }, 60_000);

  test("answered by both at once: exactly one answer holds, and every client shows that one", async () => {
    const box = sandbox("scripted/command");
    const writerAnswer = heldAnswer("allow_once");
    const followerAnswer = heldAnswer("reject_once");
    const c = await clients(box, writerAnswer.policy, followerAnswer.policy);
    try {
      const turn = prompt(c.writer.ctx, c.sessionId, "echo both-answered");
      await until(() => c.follower.client.permissionRequests.length === 1, "both clients to be asked");
      writerAnswer.release();
      followerAnswer.release();
      await turn;
      await expectSameView(c.writer, c.follower, c.sessionId);
      const shown = cardText(c.writer, c.sessionId);
      const lines = shown.split("\n").filter((l) => l.startsWith("Permission:"));
      expect(lines).toHaveLength(1);
      await expectReloadShows(box, c.follower, c.sessionId);
    } finally {
      await c.close();
    }
  }, 60_000);

  test("is not asked of an observer", async () => {
    const box = sandbox("scripted/command");
    const writer = await connectProcess(box.env, { policy: choose("allow_once") });
    const follower = await connectProcess(box.env, { policy: choose("reject_once") });
    try {
      const { sessionId } = await newSession(writer.ctx, box.workspace);
      await attach(follower.ctx, { sessionId });
      await prompt(writer.ctx, sessionId, "echo observed");
      await expectSameView(writer, follower, sessionId);
      expect(follower.client.permissionRequests).toEqual([]);
    } finally {
      await Promise.all([writer.close(), follower.close()]);
    }
  }, 60_000);
});

describe("an AskUserQuestion form of a followed session", () => {
  const ask = askPrompt([databaseQuestion]);

  test("answered by a controller: its answer holds, is checked against the form, and the card names who answered", async () => {
    const box = sandbox("scripted/call");
    const writerForms = new ClientServices({ answer: () => new Promise(() => {}) });
    const controllerForms = new ClientServices({ answer: () => ({ action: "accept", content: { q1: "SQLite" } }) });
    const writer = await connectProcess(box.env, { services: writerForms });
    const controller = await connectProcess(box.env, { services: controllerForms });
    try {
      const { sessionId } = await newSession(writer.ctx, box.workspace);
      await attach(controller.ctx, { sessionId, role: "controller" });
      await prompt(writer.ctx, sessionId, ask);
      expect(writerForms.questions).toHaveLength(1);
      expect(controllerForms.questions).toHaveLength(1);
      await expectSameView(writer, controller, sessionId);
      const shown = cardText(writer, sessionId);
      expect(shown).toContain("Answered: Database: SQLite.");
      expect(shown).toContain(`Answered from another client (pid ${controller.agent!.pid} on `);
      await expectReloadShows(box, controller, sessionId);
    } finally {
      await Promise.all([writer.close(), controller.close()]);
    }
  }, 60_000);
});
