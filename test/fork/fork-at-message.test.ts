/**
 * `session/fork` with a `messageId` (the fork-at-message RFD): the fork holds everything up to and
 * including that user or agent message, exactly as the client was shown it (same ids, same cards),
 * and nothing after; an unknown id or a thought's is an invalid-params error.
 */
import { describe, expect, test } from "bun:test";
import * as acp from "@agentclientprotocol/sdk";
import { createAgentApp } from "../../src/acp/agent-app.ts";
import { ViewClient } from "../../src/client/view-client.ts";
import { engineDeps } from "../../src/core/engine-deps.ts";
import { comparable } from "../../src/cli/demo.ts";
import { diffValues } from "../../src/view/view-diff.ts";
import type { ViewModel } from "../../src/view/view-model.ts";
import { connectInProcess, errorOf, load, newSession, prompt, type Connected } from "../support/acp-session.ts";
import { forkAt } from "../support/fork-at.ts";
import { answerBefore, messageIds, viewCutAt } from "../support/view-cut.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";
import { fixtureServer } from "../support/fixture-server.ts";
import { kits, modelRef } from "../support/provider-kits.ts";

/** A demo session of three turns (thinking, a read, a plan, a failing call, answers), live. */
async function demoSession(box: Sandbox): Promise<{ live: Connected; parent: string }> {
  const live = await connectInProcess(box.env);
  const parent = (await newSession(live.ctx, box.workspace)).sessionId;
  for (const text of ["Give me an overview", "Read the missing file", "Once more"])
    await prompt(live.ctx, parent, text);
  return { live, parent };
}

/** The fork's view as a fresh process loads it, with the title the cut had (a fork's says it is one). */
async function reloaded(box: Sandbox, sessionId: string, cut: ViewModel): Promise<ViewModel> {
  const fresh = await connectInProcess(box.env);
  try {
    await load(fresh.ctx, sessionId, box.workspace);
  } finally {
    await fresh.close();
  }
  const view = fresh.client.view(sessionId);
  return { ...view, title: cut.title, updatedAt: cut.updatedAt };
}

async function forkedAt(box: Sandbox, pick: (live: Connected, parent: string) => string) {
  const { live, parent } = await demoSession(box);
  try {
    const messageId = pick(live, parent);
    const { sessionId } = await forkAt(live.ctx, { sessionId: parent, cwd: box.workspace, mcpServers: [], messageId });
    return {
      sessionId,
      cut: viewCutAt(live.client.notifications, parent, messageId),
      parentView: live.client.view(parent),
    };
  } finally {
    await live.close();
  }
}

describe("a fork at a message, reloaded", () => {
  test("at a turn's last answer: equals the parent's live view cut there", async () => {
    const box = sandbox("scripted/demo");
    const { sessionId, cut, parentView } = await forkedAt(box, (live, parent) =>
      answerBefore(live.client.view(parent), 2),
    );
    expect(cut.timeline.length).toBeLessThan(parentView.timeline.length);
    expect(diffValues(comparable(cut), comparable(await reloaded(box, sessionId, cut)))).toEqual([]);
  });

  test("at an answer its step's call followed: the call is left out", async () => {
    const box = sandbox("scripted/demo");
    const { sessionId, cut } = await forkedAt(box, (live, parent) => {
      const view = live.client.view(parent);
      return messageIds(view, "agent").find((id) => {
        const at = view.timeline.indexOf(`message:${id}`);
        return view.timeline[at + 1]?.startsWith("tool:");
      })!;
    });
    expect(cut.timeline.at(-1)).toStartWith("message:");
    expect(diffValues(comparable(cut), comparable(await reloaded(box, sessionId, cut)))).toEqual([]);
  });

  test("at a user message: the prompt is the fork's last entry", async () => {
    const box = sandbox("scripted/demo");
    let prompted = "";
    const { sessionId, cut } = await forkedAt(
      box,
      (live, parent) => (prompted = messageIds(live.client.view(parent), "user")[1]!),
    );
    expect(cut.timeline.at(-1)).toBe(`message:${prompted}`);
    expect(diffValues(comparable(cut), comparable(await reloaded(box, sessionId, cut)))).toEqual([]);
  });
});

describe("a fork at a message it cannot hold", () => {
  test.each([
    ["an id the session never sent", () => "msg_nonexistent"],
    ["a thought's id", (view: ViewModel) => messageIds(view, "thought")[0]!],
  ])("%s is an invalid-params error", async (_what, pick) => {
    const box = sandbox("scripted/demo");
    const { live, parent } = await demoSession(box);
    try {
      const messageId = pick(live.client.view(parent));
      const error = await errorOf(
        forkAt(live.ctx, { sessionId: parent, cwd: box.workspace, mcpServers: [], messageId }),
      );
      expect(error.code).toBe(-32602);
      expect(error.message).toContain(messageId);
    } finally {
      await live.close();
    }
  });
});

describe.each(kits)("$kind: a turn on a fork at a turn's last answer", (kit) => {
  test("sends the request the parent's next turn sent from that point", async () => {
    const server = fixtureServer();
    const box = sandbox(modelRef(kit));
    Object.assign(box.env, kit.env(server));
    const readme = `${box.workspace}/README.md`;
    const live = await connectInProcess(box.env);
    try {
      const parent = (await newSession(live.ctx, box.workspace)).sessionId;
      server.enqueue(
        {
          sse: kit.thinkingThenCalls("Read it before answering.", "Let me look. ", [
            { id: "call_readme", name: "Read", input: { file_path: readme } },
          ]),
        },
        { sse: kit.thinkingThenText("Four lines; say so.", "It has four lines.") },
        { sse: kit.text("You're welcome.") },
        { sse: kit.text("Anything else?") },
      );
      await prompt(live.ctx, parent, "Read the README");
      await prompt(live.ctx, parent, "Thanks");
      const onParent = server.requests.at(-1)?.body;
      await prompt(live.ctx, parent, "Bye");
      const messageId = answerBefore(live.client.view(parent), 1);
      const { sessionId } = await forkAt(live.ctx, {
        sessionId: parent,
        cwd: box.workspace,
        mcpServers: [],
        messageId,
      });
      server.enqueue({ sse: kit.text("You're welcome.") });
      await prompt(live.ctx, sessionId, "Thanks");
      expect(server.requests.length).toBe(5);
      expect(server.requests.at(-1)?.body).toEqual(onParent);
      expect(JSON.stringify(onParent)).toContain("call_readme");
    } finally {
      await live.close();
    }
  });
});

test("initialize declares sessionCapabilities.fork.atMessageId, as the RFD says", async () => {
  const box = sandbox("scripted/demo");
  const { inMemory, closeAll } = createAgentApp(engineDeps(box.env));
  const connection = new ViewClient().app().connect(inMemory());
  try {
    const answer = await connection.agent.request(acp.methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: {},
    });
    // `fork` is in the unstable entry point's types only.
    const session = answer.agentCapabilities?.sessionCapabilities as Record<string, unknown> | undefined;
    expect(session?.fork).toEqual({ atMessageId: true });
    // The rewind methods are extensions, declared under _meta.
    expect(answer.agentCapabilities?._meta?.verbatim).toMatchObject({ rewind: { editPrompt: true, files: true } });
  } finally {
    connection.close();
    await closeAll();
  }
});
