/**
 * Every way a session becomes active sends what a client needs to draw it: its slash commands and
 * its context usage (the response carries its modes and config options). A load replays them; a
 * `session/resume` sends them before its response, as a load does; a `session/fork` after its
 * response, as `session/new` sends its commands. Each is what the load's replay ends with.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { initializedRawAgent, type RawAgent, type RawMessage } from "../support/raw-client.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";

type Update = { sessionUpdate: string } & Record<string, unknown>;
const updateOf = (m: RawMessage) =>
  m.method === "session/update" ? (m.params as { sessionId: string; update: Update }) : undefined;

/** The commands and usage updates of `sessionId` among `messages`, in order. */
const drawing = (messages: RawMessage[], sessionId: string) =>
  messages.flatMap((m) => {
    const u = updateOf(m);
    if (u?.sessionId !== sessionId) return [];
    const kind = u.update.sessionUpdate;
    return kind === "available_commands_update" || kind === "usage_update" ? [u.update] : [];
  });

/** The last update of each kind: what a client holds once it folded them. */
const held = (updates: Update[]) => ({
  commands: updates.findLast((u) => u.sessionUpdate === "available_commands_update"),
  usage: updates.findLast((u) => u.sessionUpdate === "usage_update"),
});

let box: Sandbox;
let sessionId = "";
/** What a load of the session leaves a client holding. */
let loaded: ReturnType<typeof held>;

async function withAgent<T>(run: (agent: RawAgent) => Promise<T>): Promise<T> {
  const agent = await initializedRawAgent(box.env);
  try {
    return await run(agent);
  } finally {
    await agent.close();
  }
}

beforeAll(async () => {
  box = sandbox("scripted/plain");
  await withAgent(async (agent) => {
    sessionId = (
      (await agent.request("session/new", { cwd: box.workspace, mcpServers: [] })).result as {
        sessionId: string;
      }
    ).sessionId;
    await agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "Hello" }] });
  });
  loaded = await withAgent(async (agent) => {
    const answer = await agent.request("session/load", { sessionId, cwd: box.workspace, mcpServers: [] });
    expect(answer.error).toBeUndefined();
    return held(drawing(agent.messages, sessionId));
  });
  // The session has both to show: its commands (an empty list is a list) and the usage of its turn.
  expect(loaded.commands).toMatchObject({ availableCommands: expect.any(Array) });
  expect(loaded.usage).toMatchObject({ used: expect.any(Number), size: 200_000 });
});

describe("what a client needs to draw a session", () => {
  test("session/resume sends the commands and usage before its response, as the load ends with them", async () => {
    await withAgent(async (agent) => {
      const answer = await agent.request("session/resume", { sessionId, cwd: box.workspace, mcpServers: [] });
      expect(answer.error).toBeUndefined();
      const responseAt = agent.messages.indexOf(answer);
      const before = drawing(agent.messages.slice(0, responseAt), sessionId);
      expect(held(before)).toEqual(loaded);
      expect(drawing(agent.messages.slice(responseAt + 1), sessionId)).toEqual([]);
    });
  });

  test("session/fork sends the fork's commands and usage after its response, equal to its source's", async () => {
    await withAgent(async (agent) => {
      const answer = await agent.request("session/fork", { sessionId, cwd: box.workspace, mcpServers: [] });
      expect(answer.error).toBeUndefined();
      const forked = (answer.result as { sessionId: string }).sessionId;
      await agent.until(
        () => held(drawing(agent.messages, forked)).usage !== undefined,
        "the fork's usage after its response",
      );
      const responseAt = agent.messages.indexOf(answer);
      expect(drawing(agent.messages.slice(0, responseAt), forked)).toEqual([]);
      expect(held(drawing(agent.messages, forked))).toEqual(loaded);
    });
  });
});
