/**
 * A fork is told apart from its source by its title: the source's, saying it is a fork. The title
 * is a fact recorded when the fork is made (on the wire and from the command line), so lists show
 * it, the client that forked is told it once the fork's response is written, and a reload shows
 * the same.
 */
import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, test } from "bun:test";
import { connectProcess, fork, load, newSession, prompt } from "../support/acp-session.ts";
import { runCli } from "../support/cli-process.ts";
import { freshDatabase } from "../support/postgres-server.ts";
import { sandbox } from "../support/workspace.ts";

describe("a fork's title", () => {
  test.each(["sqlite", "postgres"])(
    "says it is a fork, in session/list, to the client that forked it, and on reload (%s)",
    async (store) => {
      const box = sandbox("scripted/demo");
      if (store === "postgres") box.env.VERBATIM_JOURNAL = await freshDatabase();
      const live = await connectProcess(box.env);
      let parent = "";
      let forked = "";
      let listed: acp.SessionInfo[] = [];
      try {
        parent = (await newSession(live.ctx, box.workspace)).sessionId;
        await prompt(live.ctx, parent, "Read the README");
        forked = (await fork(live.ctx, { sessionId: parent, cwd: box.workspace, mcpServers: [] })).sessionId;
        listed = (await live.ctx.request(acp.methods.agent.session.list, {})).sessions;
        // The fork's first update is its title, sent after its response (the client knows the fork then).
        const first = live.client.notifications.find((n) => n.sessionId === forked);
        expect(first?.update).toMatchObject({ sessionUpdate: "session_info_update", title: "Read the README (fork)" });
      } finally {
        await live.close();
      }
      expect(listed.find((s) => s.sessionId === parent)?.title).toBe("Read the README");
      expect(listed.find((s) => s.sessionId === forked)?.title).toBe("Read the README (fork)");
      const fresh = await connectProcess(box.env);
      try {
        await load(fresh.ctx, forked, box.workspace);
      } finally {
        await fresh.close();
      }
      const shownLive = live.client.view(forked);
      const reloaded = fresh.client.view(forked);
      expect(reloaded.title).toBe("Read the README (fork)");
      expect({ title: reloaded.title, updatedAt: reloaded.updatedAt }).toEqual({
        title: shownLive.title,
        updatedAt: shownLive.updatedAt,
      });
    },
  );

  test("made from the command line, says it is a fork in `verbatim sessions`", async () => {
    const box = sandbox("scripted/demo");
    const c = await connectProcess(box.env);
    let parent = "";
    try {
      parent = (await newSession(c.ctx, box.workspace)).sessionId;
      await prompt(c.ctx, parent, "Read the README");
    } finally {
      await c.close();
    }
    const forked = (await runCli(["fork", parent], box.env)).stdout.trim();
    const rows = (await runCli(["sessions", "--json"], box.env)).stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { sessionId: string; title?: string });
    expect(rows.find((row) => row.sessionId === parent)?.title).toBe("Read the README");
    expect(rows.find((row) => row.sessionId === forked)?.title).toBe("Read the README (fork)");
  });

  test("of a fork says so again", async () => {
    const box = sandbox("scripted/demo");
    const c = await connectProcess(box.env);
    try {
      const parent = (await newSession(c.ctx, box.workspace)).sessionId;
      await prompt(c.ctx, parent, "Read the README");
      const once = (await fork(c.ctx, { sessionId: parent, cwd: box.workspace, mcpServers: [] })).sessionId;
      const twice = (await fork(c.ctx, { sessionId: once, cwd: box.workspace, mcpServers: [] })).sessionId;
      const { sessions } = await c.ctx.request(acp.methods.agent.session.list, {});
      expect(sessions.find((s) => s.sessionId === twice)?.title).toBe("Read the README (fork) (fork)");
    } finally {
      await c.close();
    }
  });
});
