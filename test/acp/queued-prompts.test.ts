/**
 * Queued prompts (claude-agent-acp's `promptQueueing`): a `session/prompt` while a turn runs waits
 * its turn instead of being refused; `session/cancel` empties the line. Driven through the agent
 * in a process, on each provider wire against its recorded streams on loopback.
 */
import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, test } from "bun:test";
import { connectInProcess, connectProcess, errorOf, newSession, prompt, until } from "../support/acp-session.ts";
import { fixtureServer } from "../support/fixture-server.ts";
import { heldPermission } from "../support/held-permission.ts";
import { kits, modelRef, type Kit } from "../support/provider-kits.ts";
import { sandbox } from "../support/workspace.ts";
import { texts } from "../parity/harness.ts";
import { MAX_QUEUED_PROMPTS } from "../../src/core/session/turn-line.ts";

/** A first turn that writes a file (asking first) and then answers; the test holds the question open. */
function writingTurn(kit: Kit, path: string) {
  return [
    {
      sse: kit.calls([{ id: "call_write", name: "Write", input: { file_path: path, content: "one\n" } }], "Writing. "),
    },
    { sse: kit.text("Written.") },
  ];
}

describe.each(kits)("$kind: prompts sent while a turn runs", (kit) => {
  test("three queued prompts wait their turn and run in the order sent", async () => {
    const server = fixtureServer();
    const box = sandbox(modelRef(kit));
    Object.assign(box.env, kit.env(server));
    const held = heldPermission();
    server.enqueue(
      ...writingTurn(kit, `${box.workspace}/one.txt`),
      { sse: kit.text("Second answer.") },
      { sse: kit.text("Third answer.") },
      { sse: kit.text("Fourth answer.") },
    );
    const c = await connectProcess(box.env, { policy: held.policy });
    try {
      const { sessionId } = await newSession(c.ctx, box.workspace);
      const first = prompt(c.ctx, sessionId, "First");
      await held.asked();
      const queued = ["Second", "Third", "Fourth"].map((text) => prompt(c.ctx, sessionId, text));
      // The queued prompts are not echoed (nor sent to the model) while the first turn runs.
      await Bun.sleep(100);
      expect(texts(c.client.view(sessionId), "user")).toEqual(["First"]);
      expect(server.requests.length).toBe(1);
      held.release();
      const answers = await Promise.all([first, ...queued]);
      expect(answers.map((a) => a.stopReason)).toEqual(["end_turn", "end_turn", "end_turn", "end_turn"]);
      const view = c.client.view(sessionId);
      expect(texts(view, "user")).toEqual(["First", "Second", "Third", "Fourth"]);
      expect(texts(view, "agent")).toEqual([
        "Writing. ",
        "Written.",
        "Second answer.",
        "Third answer.",
        "Fourth answer.",
      ]);
      expect(server.requests.length).toBe(5);
    } finally {
      await c.close();
    }
  });

  test("a cancel ends the running turn and every queued prompt cancelled; none of them ran", async () => {
    const server = fixtureServer();
    const box = sandbox(modelRef(kit));
    Object.assign(box.env, kit.env(server));
    const held = heldPermission();
    server.enqueue(...writingTurn(kit, `${box.workspace}/one.txt`));
    const c = await connectProcess(box.env, { policy: held.policy });
    try {
      const { sessionId } = await newSession(c.ctx, box.workspace);
      const first = prompt(c.ctx, sessionId, "First");
      await held.asked();
      const queued = ["Second", "Third"].map((text) => prompt(c.ctx, sessionId, text));
      await Bun.sleep(50);
      await c.ctx.notify(acp.methods.agent.session.cancel, { sessionId });
      const answers = await Promise.all([first, ...queued]);
      expect(answers.map((a) => a.stopReason)).toEqual(["cancelled", "cancelled", "cancelled"]);
      expect(texts(c.client.view(sessionId), "user")).toEqual(["First"]);
      expect(server.requests.length).toBe(1);
      // The line is empty: the next prompt runs at once.
      server.enqueue({ sse: kit.text("Back.") });
      expect((await prompt(c.ctx, sessionId, "Again")).stopReason).toBe("end_turn");
      expect(texts(c.client.view(sessionId), "user")).toEqual(["First", "Again"]);
    } finally {
      await c.close();
    }
  });
});

test("initialize advertises prompt queueing as claude-agent-acp does", async () => {
  const box = sandbox("scripted/plain");
  const c = await connectProcess(box.env);
  try {
    const init = await c.ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION });
    expect(init.agentCapabilities?._meta?.claudeCode).toEqual({ promptQueueing: true });
  } finally {
    await c.close();
  }
});

test("a prompt that finds the line full is refused with queue_full; the prompts waiting still run", async () => {
  const box = sandbox("scripted/slow");
  const c = await connectInProcess(box.env);
  try {
    const { sessionId } = await newSession(c.ctx, box.workspace);
    const first = prompt(c.ctx, sessionId, "First");
    await until(() => c.client.notifications.some((n) => n.update.sessionUpdate === "agent_thought_chunk"), "thinking");
    const waiting = Array.from({ length: MAX_QUEUED_PROMPTS }, (_, i) => prompt(c.ctx, sessionId, `Queued ${i}`));
    await Bun.sleep(50);
    const error = await errorOf(prompt(c.ctx, sessionId, "One too many"));
    expect(error.code).toBe(-32600);
    expect(error.data).toMatchObject({ reason: "queue_full", sessionId, queued: MAX_QUEUED_PROMPTS });
    await c.ctx.notify(acp.methods.agent.session.cancel, { sessionId });
    const answers = await Promise.all([first, ...waiting]);
    expect(new Set(answers.map((a) => a.stopReason))).toEqual(new Set(["cancelled"]));
  } finally {
    await c.close();
  }
});
