/**
 * A `session/load` or `session/resume` that arrives before the engine has loaded is answered from
 * what replay needs (src/acp/replay-first.ts): the client is sent what the engine would send, and
 * the session becomes live once the engine is ready; a request that needs the engine waits for it.
 * Each test drives the stdio server both ways (`replayFirst: "always"`, the load served before the
 * engine; `"off"`, the engine first) where the two must agree.
 */
import { describe, expect, test } from "bun:test";
import type { ReplayFirstMode } from "../../src/acp/agent-app.ts";
import { serveStdio } from "../../src/acp/stdio.ts";
import { engineDeps } from "../../src/core/engine-deps.ts";
import type { EngineDeps } from "../../src/core/session/session-runtime.ts";
import { connectInProcess, newSession, prompt, until } from "../support/acp-session.ts";
import { fakeEnds } from "../support/fake-ends.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: 1, clientCapabilities: {} },
};

const request = (id: number, method: string, params: Record<string, unknown>) => ({
  jsonrpc: "2.0",
  id,
  method,
  params,
});

/** A session of two turns, recorded by its own agent. */
async function recordedSession(box: Sandbox): Promise<string> {
  const live = await connectInProcess(box.env);
  const { sessionId } = await newSession(live.ctx, box.workspace);
  await prompt(live.ctx, sessionId, "Hello");
  await prompt(live.ctx, sessionId, "Again");
  await live.close();
  return sessionId;
}

/**
 * Serves fake stdio ends with the sandbox's engine; `toolsReadAt` is how many messages had been
 * written when the engine first took the tools (what making a session live does first).
 */
function serve(box: Sandbox, replayFirst: ReplayFirstMode) {
  const ends = fakeEnds();
  const deps = engineDeps(box.env);
  const watched = { toolsReadAt: undefined as number | undefined };
  const wired: EngineDeps = {
    ...deps,
    get tools() {
      watched.toolsReadAt ??= ends.output.messages().length;
      return deps.tools;
    },
  };
  const served = serveStdio({ deps: wired, ends, replayFirst }).finally(() => deps.store.close());
  const answer = async (id: number) => {
    await until(() => ends.output.messages().some((m) => m.id === id), `the answer to ${id}`);
    return ends.output.messages().find((m) => m.id === id) as Record<string, unknown>;
  };
  const stop = async () => {
    ends.end();
    await served;
  };
  return { ends, watched, answer, stop };
}

/** What the agent wrote for `requests`, sent one after another once each is answered, both ways. */
async function bothWays(
  box: Sandbox,
  requests: ReturnType<typeof request>[],
): Promise<Record<ReplayFirstMode, string>> {
  const written = {} as Record<ReplayFirstMode, string>;
  for (const mode of ["always", "off"] as const) {
    const agent = serve(box, mode);
    agent.ends.send(INITIALIZE);
    await agent.answer(0);
    for (const r of requests) {
      agent.ends.send(r);
      await agent.answer(r.id);
    }
    written[mode] = agent.ends.output.text;
    await agent.stop();
  }
  return written;
}

describe("a load served before the engine has loaded", () => {
  test("is answered before the engine makes the session live; with the engine first, after", async () => {
    const box = sandbox("scripted/plain");
    const sessionId = await recordedSession(box);
    const readAt: Partial<Record<ReplayFirstMode, number>> = {};
    const answeredAt: Partial<Record<ReplayFirstMode, number>> = {};
    for (const mode of ["always", "off"] as const) {
      const agent = serve(box, mode);
      agent.ends.send(INITIALIZE);
      await agent.answer(0);
      agent.ends.send(request(1, "session/load", { sessionId, cwd: box.workspace, mcpServers: [] }));
      await agent.answer(1);
      answeredAt[mode] = agent.ends.output.messages().length;
      await until(() => agent.watched.toolsReadAt !== undefined, "the session made live");
      readAt[mode] = agent.watched.toolsReadAt;
      await agent.stop();
    }
    expect(answeredAt.always).toBeGreaterThan(5);
    // Served first: every update and the response were written before the session was made live.
    expect(readAt.always).toBe(answeredAt.always);
    // The engine first: the session was live before its response was written.
    expect(readAt.off).toBeLessThan(answeredAt.off as number);
  });

  test("sends the bytes a load after the engine sends", async () => {
    const box = sandbox("scripted/plain");
    const sessionId = await recordedSession(box);
    const written = await bothWays(box, [
      request(1, "session/load", { sessionId, cwd: box.workspace, mcpServers: [] }),
    ]);
    expect(written.always.split("\n").length).toBeGreaterThan(10);
    expect(written.always).toBe(written.off);
  });

  test("a prompt sent at once after it waits for the engine, runs, and is recorded after the session's records", async () => {
    const box = sandbox("scripted/plain");
    const sessionId = await recordedSession(box);
    const agent = serve(box, "always");
    agent.ends.send(INITIALIZE);
    await agent.answer(0);
    agent.ends.send(request(1, "session/load", { sessionId, cwd: box.workspace, mcpServers: [] }));
    await agent.answer(1);
    agent.ends.send(request(2, "session/prompt", { sessionId, prompt: [{ type: "text", text: "Third" }] }));
    expect(((await agent.answer(2)).result as { stopReason: string }).stopReason).toBe("end_turn");
    agent.ends.send(request(3, "session/load", { sessionId, cwd: box.workspace, mcpServers: [] }));
    await agent.answer(3);
    await agent.stop();
    const replayed = agent.ends.output.text.slice(agent.ends.output.text.indexOf('"id":2,'));
    expect(replayed).toContain('"text":"Third"');
    expect(replayed.match(/"text":"Hello"/g)?.length).toBe(1);
  });

  test("a second load of the session before the engine replays it again, and the session is made live once", async () => {
    const box = sandbox("scripted/plain");
    const sessionId = await recordedSession(box);
    const agent = serve(box, "always");
    agent.ends.send(INITIALIZE);
    await agent.answer(0);
    const load = (id: number) => request(id, "session/load", { sessionId, cwd: box.workspace, mcpServers: [] });
    agent.ends.send(load(1));
    agent.ends.send(load(2));
    await agent.answer(2);
    agent.ends.send(request(3, "session/prompt", { sessionId, prompt: [{ type: "text", text: "Third" }] }));
    expect(((await agent.answer(3)).result as { stopReason: string }).stopReason).toBe("end_turn");
    agent.ends.send(load(4));
    await agent.answer(4);
    await agent.stop();
    const text = agent.ends.output.text;
    const lastReplay = text.slice(text.indexOf('"id":3,'));
    expect(lastReplay.match(/"text":"Third"/g)?.length).toBe(1);
    expect(lastReplay.match(/"text":"Hello"/g)?.length).toBe(1);
    expect(text).not.toContain('"error"');
  });

  test("a resume sends what the engine's resume sends", async () => {
    const box = sandbox("scripted/plain");
    const sessionId = await recordedSession(box);
    const written = await bothWays(box, [request(1, "session/resume", { sessionId, cwd: box.workspace })]);
    expect(written.always).toContain('"id":1,"result"');
    expect(written.always).toBe(written.off);
  });

  test("an unknown session, or a session id or directory the engine refuses, is refused as the engine refuses it", async () => {
    const box = sandbox("scripted/plain");
    const written = await bothWays(box, [
      request(1, "session/load", { sessionId: "ses_unknown", cwd: box.workspace, mcpServers: [] }),
      request(2, "session/load", { sessionId: "../x", cwd: box.workspace, mcpServers: [] }),
      request(3, "session/resume", { sessionId: "ses_unknown", cwd: "relative", mcpServers: [] }),
    ]);
    expect(written.always.match(/"error"/g)?.length).toBe(3);
    expect(written.always).toBe(written.off);
  });
});
