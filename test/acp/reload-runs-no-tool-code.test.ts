/**
 * A reload shows what was recorded, never what tool code would show now: a session recorded with
 * one version of a tool reopens with the recorded title, locations and content even when the
 * tool's code has changed since (here: every function of it throws).
 */
import { describe, expect, test } from "bun:test";
import { readTool } from "../../src/core/tools/read.ts";
import { defaultTools, ToolRegistry } from "../../src/core/tools/registry.ts";
import type { Tool } from "../../src/core/tools/tool.ts";
import { connectInProcess, load, newSession, prompt } from "../support/acp-session.ts";
import { sandbox } from "../support/workspace.ts";
import { cards } from "../parity/harness.ts";

const withRead = (read: Tool) => new ToolRegistry([read, ...defaultTools().filter((t) => t.name !== "Read")]);

const recorded = withRead({
  ...(readTool as Tool),
  title: () => "Read, as titled when the session was recorded",
  locations: () => [{ path: "/recorded/location", line: 7 }],
});

const boom = () => {
  throw new Error("tool code ran during a reload");
};
const changed = withRead({
  ...(readTool as Tool),
  title: boom,
  locations: boom,
  preview: boom,
  run: boom,
  ruleScope: boom,
});

describe("reload never runs tool code", () => {
  test("a tool whose title changed after recording still shows the recorded title", async () => {
    const box = sandbox("scripted/tool");
    const live = await connectInProcess(box.env, { tools: recorded });
    const { sessionId } = await newSession(live.ctx, box.workspace);
    await prompt(live.ctx, sessionId, "Read the README");
    const liveCard = cards(live.client.view(sessionId))[0];
    await live.close();

    const reopened = await connectInProcess(box.env, { tools: changed });
    try {
      await load(reopened.ctx, sessionId, box.workspace);
      const card = cards(reopened.client.view(sessionId))[0];
      expect(card?.title).toBe("Read, as titled when the session was recorded");
      expect(card?.locations).toEqual([{ path: "/recorded/location", line: 7 }]);
      expect(card).toEqual(liveCard!);
    } finally {
      await reopened.close();
    }
  });
});
