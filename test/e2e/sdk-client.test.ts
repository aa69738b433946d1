/**
 * The acpx flows again, through the SDK's own client over spawned verbatim processes: an edit
 * that asks and is approved (through the client's file system), the session resumed in a fresh
 * process and continued, then loaded in a third process. Assertions are on what the client
 * received.
 */
import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { comparable } from "../../src/cli/demo.ts";
import { choose } from "../../src/client/view-client.ts";
import { diffValues } from "../../src/view/view-diff.ts";
import { fold } from "../../src/view/view-model.ts";
import { connectProcess, load, newSession, prompt, type Connected } from "../support/acp-session.ts";
import { textOf } from "../support/cards.ts";
import { ClientServices } from "../support/client-services.ts";
import { sandbox } from "../support/workspace.ts";

const SLOW = 120_000;

async function closing<T>(connected: Connected, body: (c: Connected) => Promise<T>): Promise<T> {
  try {
    return await body(connected);
  } finally {
    await connected.close();
  }
}

/** Two prompts in two processes (new, then resume), and a load in a third. */
async function editFlow() {
  const box = sandbox("scripted/edit");
  const services = new ClientServices({ fs: true, terminal: true });
  const options = { policy: choose("allow_once"), services };
  const stops: string[] = [];
  const first = await connectProcess(box.env, options);
  const sessionId = await closing(first, async ({ ctx }) => {
    const { sessionId } = await newSession(ctx, box.workspace);
    stops.push((await prompt(ctx, sessionId, "Fix the third line")).stopReason);
    return sessionId;
  });
  const second = await connectProcess(box.env, options);
  const resumed = await closing(second, async ({ ctx }) => {
    const response = await ctx.request(acp.methods.agent.session.resume, {
      sessionId,
      cwd: box.workspace,
      mcpServers: [],
    });
    stops.push((await prompt(ctx, sessionId, "Now the fourth")).stopReason);
    return response;
  });
  const third = await connectProcess(box.env, options);
  await closing(third, ({ ctx }) => load(ctx, sessionId, box.workspace));
  return {
    first: first.client.notifications,
    firstAsked: first.client.permissionRequests,
    second: second.client.notifications,
    loaded: third.client.view(sessionId),
    stops,
    resumed,
    readme: readFileSync(join(box.workspace, "README.md"), "utf8"),
    fsCalls: [...services.calls],
  };
}

/** The flow runs once; each test gets its own copy (Bun's `toMatchObject` writes its matchers into what it checks). */
let ran: ReturnType<typeof editFlow> | undefined;
const flow = async () => structuredClone(await (ran ??= editFlow()));

describe("the SDK's client drives verbatim processes", () => {
  test(
    "an edit asks; the client approves; it receives the diff and the turn ends end_turn",
    async () => {
      const r = await flow();
      expect(r.stops).toEqual(["end_turn", "end_turn"]);
      expect(r.firstAsked).toHaveLength(1);
      expect(r.firstAsked[0]?.toolCall.kind).toBe("edit");
      const view = fold(r.first.map((n) => n.update));
      const edit = Object.values(view.toolCalls).find((c) => c.kind === "edit");
      expect(edit?.status).toBe("completed");
      expect(edit?.content?.find((c) => c.type === "diff")).toMatchObject({
        oldText: expect.stringContaining("Line three."),
        newText: expect.stringContaining("Line 3."),
      });
      expect(textOf(edit?.content)).toContain("Permission: Allow (allowed once).");
      expect(r.fsCalls).toContain("fs/write_text_file");
    },
    SLOW,
  );

  test(
    "a fresh process resumes the session without replaying it, and the conversation continues",
    async () => {
      const r = await flow();
      expect(r.resumed).toMatchObject({ modes: { currentModeId: "default" } });
      const firstChunk = r.second.find((n) => n.update.sessionUpdate === "user_message_chunk");
      expect(firstChunk?.update).toMatchObject({ content: { text: "Now the fourth" } });
      expect(
        r.second.some(
          (n) =>
            n.update.sessionUpdate === "user_message_chunk" &&
            n.update.content.type === "text" &&
            n.update.content.text === "Fix the third line",
        ),
      ).toBe(false);
      expect(r.readme).toBe("# Sample\n\nLine 3.\nLine 4.\n");
    },
    SLOW,
  );

  test(
    "a load in a third process shows exactly what the client was shown live across both processes",
    async () => {
      const r = await flow();
      const live = fold([...r.first, ...r.second].map((n) => n.update));
      expect(Object.keys(live.toolCalls)).toHaveLength(3);
      expect(diffValues(comparable(live), comparable(r.loaded))).toEqual([]);
    },
    SLOW,
  );
});
