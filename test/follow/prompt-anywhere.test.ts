/**
 * A prompt or a cancel from any controller: a client attached as a controller through another
 * verbatim process prompts the session, and the process that runs it (the writer) runs the
 * prompt, once, as its own client would have; every client is shown the turn, and the
 * controller's prompt is answered when it ends. A cancel from a controller cancels the writer's
 * turn. An observer can do neither.
 */
import { describe, expect, test } from "bun:test";
import * as acp from "@agentclientprotocol/sdk";
import { openJournal } from "../../src/core/config/open-journal.ts";
import { readAll } from "../../src/journal/store.ts";
import { connectProcess, errorOf, newSession, prompt, until } from "../support/acp-session.ts";
import { attach, expectSameView, withClients } from "../support/attach.ts";
import { sandbox } from "../support/workspace.ts";

const userTexts = (view: { messages: Record<string, { role: string; content: { type: string; text?: string }[] }> }) =>
  Object.values(view.messages)
    .filter((m) => m.role === "user")
    .map((m) => m.content.map((c) => c.text ?? "").join(""));

describe("a controller of a session another process runs", () => {
  test("prompts it: the writer runs the prompt, every client is shown the turn, and the prompt is answered at its end", async () => {
    const box = sandbox("scripted/demo");
    await withClients(box, async (writer, controller) => {
      const { sessionId } = await newSession(writer.ctx, box.workspace);
      await attach(controller.ctx, { sessionId, role: "controller" });
      const answer = await prompt(controller.ctx, sessionId, "give me an overview");
      expect(answer.stopReason).toBe("end_turn");
      await expectSameView(writer, controller, sessionId);
      expect(userTexts(controller.client.view(sessionId))).toEqual(["give me an overview"]);
      const store = openJournal(box.env);
      try {
        const received = (await readAll(store, sessionId)).map((r) => r.fact).find((f) => f.kind === "prompt_received");
        expect(received?.kind === "prompt_received" && received.from?.by.pid).toBe(controller.agent!.pid);
      } finally {
        await store.close();
      }
    });
  }, 60_000);

  test("prompting at once with another controller: each prompt runs once, one after the other", async () => {
    const box = sandbox("scripted/demo");
    await withClients(box, async (writer, controller) => {
      const second = await connectProcess(box.env);
      try {
        const { sessionId } = await newSession(writer.ctx, box.workspace);
        await attach(controller.ctx, { sessionId, role: "controller" });
        await attach(second.ctx, { sessionId, role: "controller" });
        const answers = await Promise.all([
          prompt(controller.ctx, sessionId, "give me an overview"),
          prompt(second.ctx, sessionId, "and read the missing file"),
        ]);
        expect(answers.map((a) => a.stopReason)).toEqual(["end_turn", "end_turn"]);
        await expectSameView(writer, controller, sessionId);
        await expectSameView(writer, second, sessionId);
        expect(userTexts(writer.client.view(sessionId)).sort()).toEqual([
          "and read the missing file",
          "give me an overview",
        ]);
      } finally {
        await second.close();
      }
    });
  }, 60_000);

  test("cancels the writer's running turn", async () => {
    const box = sandbox("scripted/slow");
    await withClients(box, async (writer, controller) => {
      const { sessionId } = await newSession(writer.ctx, box.workspace);
      await attach(controller.ctx, { sessionId, role: "controller" });
      const turn = prompt(writer.ctx, sessionId, "go slowly");
      await until(
        () => controller.client.notifications.some((n) => n.update.sessionUpdate === "agent_message_chunk"),
        "the turn to reach the controller",
      );
      await controller.ctx.notify(acp.methods.agent.session.cancel, { sessionId });
      expect((await turn).stopReason).toBe("cancelled");
    });
  }, 60_000);

  test("is refused a prompt when no process runs the session", async () => {
    const box = sandbox("scripted/demo");
    const writer = await connectProcess(box.env);
    const controller = await connectProcess(box.env);
    try {
      const { sessionId } = await newSession(writer.ctx, box.workspace);
      await prompt(writer.ctx, sessionId, "give me an overview");
      await attach(controller.ctx, { sessionId, role: "controller" });
      await writer.close();
      const refused = await errorOf(prompt(controller.ctx, sessionId, "anyone there?"));
      expect(refused.code).toBe(-32600);
      expect(refused.message).toContain("no live process runs session");
    } finally {
      await controller.close();
    }
  }, 60_000);
});

describe("an observer of a session another process runs", () => {
  test("cannot prompt it", async () => {
    const box = sandbox("scripted/demo");
    await withClients(box, async (writer, observer) => {
      const { sessionId } = await newSession(writer.ctx, box.workspace);
      await attach(observer.ctx, { sessionId });
      const refused = await errorOf(prompt(observer.ctx, sessionId, "hello"));
      expect(refused.code).toBe(-32600);
      expect(refused.message).toContain("as an observer");
    });
  }, 60_000);
});
