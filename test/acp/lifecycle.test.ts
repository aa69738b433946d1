/** The session lifecycle over ACP: new, load, resume, list, close, delete, config. */
import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { command, writeHooks } from "../support/hooks.ts";
import { connectInProcess, connectProcess, errorOf, load, newSession, prompt, until } from "../support/acp-session.ts";
import { withAgent } from "../support/with-agent.ts";
import { dumpDatabase } from "../support/db-dump.ts";
import { sandbox } from "../support/workspace.ts";
import { diffValues } from "../../src/view/view-diff.ts";
import { comparable } from "../../src/cli/demo.ts";
import { fold } from "../../src/view/view-model.ts";

describe("session/new", () => {
  test("returns modes and the mode, model and thought_level config options", async () => {
    await withAgent("scripted/plain", async (c, box) => {
      const created = await newSession(c.ctx, box.workspace);
      expect(created.sessionId).toMatch(/^ses_[0-9a-z]+$/);
      expect(created.modes?.currentModeId).toBe("default");
      expect(created.modes?.availableModes.map((m) => m.id)).toEqual([
        "default",
        "acceptEdits",
        "plan",
        "bypassPermissions",
      ]);
      expect(created.configOptions?.map((o) => [o.id, o.category])).toEqual([
        ["mode", "mode"],
        ["model", "model"],
        ["thought_level", "thought_level"],
      ]);
      const model = created.configOptions?.find((o) => o.id === "model");
      expect(model?.type === "select" && model.currentValue).toBe("scripted/plain");
    });
  });
});

describe("session/load", () => {
  test("loading twice sends identical updates and leaves the journal unchanged", async () => {
    const box = sandbox("scripted/demo");
    const live = await connectProcess(box.env);
    const { sessionId } = await newSession(live.ctx, box.workspace);
    await prompt(live.ctx, sessionId, "First");
    await live.close();
    const before = dumpDatabase(join(box.home, "journal.db"));
    const loads = [];
    for (let i = 0; i < 2; i++) {
      const fresh = await connectProcess(box.env);
      await load(fresh.ctx, sessionId, box.workspace);
      loads.push(fresh.client.notifications);
      await fresh.close();
    }
    expect(loads[0]!.length).toBeGreaterThan(5);
    expect(loads[1]).toEqual(loads[0]!);
    expect(dumpDatabase(join(box.home, "journal.db"))).toEqual(before);
  });

  test("every update is sent before the load response", async () => {
    const box = sandbox("scripted/tool");
    const live = await connectInProcess(box.env);
    const { sessionId } = await newSession(live.ctx, box.workspace);
    await prompt(live.ctx, sessionId, "Read");
    await live.close();
    const fresh = await connectProcess(box.env);
    try {
      await load(fresh.ctx, sessionId, box.workspace);
      const countAtResponse = fresh.client.notifications.length;
      await Bun.sleep(100);
      expect(countAtResponse).toBeGreaterThan(0);
      expect(fresh.client.notifications.length).toBe(countAtResponse);
    } finally {
      await fresh.close();
    }
  });

  test("loading a session already open in this process replays it in full again", async () => {
    await withAgent("scripted/tool", async (c, box) => {
      const { sessionId } = await newSession(c.ctx, box.workspace);
      await prompt(c.ctx, sessionId, "Read");
      const liveView = structuredClone(c.client.view(sessionId));
      const liveCount = c.client.notifications.length;
      await load(c.ctx, sessionId, box.workspace);
      // A client starts a fresh view for a reload: the replay alone shows the whole session again.
      const replayed = fold(c.client.notifications.slice(liveCount).map((n) => n.update));
      expect(diffValues(comparable(replayed), comparable(liveView))).toEqual([]);
      // And the session goes on live after the reload.
      expect((await prompt(c.ctx, sessionId, "Again")).stopReason).toBe("end_turn");
    });
  });

  test("loading a session while its turn runs is a typed error", async () => {
    await withAgent("scripted/slow", async (c, box) => {
      const { sessionId } = await newSession(c.ctx, box.workspace);
      const turn = prompt(c.ctx, sessionId, "Go");
      await until(
        () => c.client.notifications.some((n) => n.update.sessionUpdate === "agent_thought_chunk"),
        "thinking",
      );
      const error = await errorOf(load(c.ctx, sessionId, box.workspace));
      expect(error.code).toBe(-32600);
      expect(error.data).toMatchObject({ reason: "turn_running", sessionId });
      await c.ctx.notify(acp.methods.agent.session.cancel, { sessionId });
      expect((await turn).stopReason).toBe("cancelled");
    });
  });
});

describe("session/resume", () => {
  test("restores the session without replaying it, and the session continues", async () => {
    const box = sandbox("scripted/plain");
    const live = await connectInProcess(box.env);
    const { sessionId } = await newSession(live.ctx, box.workspace);
    await prompt(live.ctx, sessionId, "One");
    await live.ctx.request(acp.methods.agent.session.setMode, { sessionId, modeId: "plan" });
    await live.close();
    const c = await connectInProcess(box.env);
    try {
      const resumed = await c.ctx.request(acp.methods.agent.session.resume, {
        sessionId,
        cwd: box.workspace,
        mcpServers: [],
      });
      // No replay: only what a client needs to draw the session (its commands and usage), then the response.
      expect(c.client.notifications.map((n) => n.update.sessionUpdate)).toEqual([
        "available_commands_update",
        "usage_update",
      ]);
      expect(resumed.modes?.currentModeId).toBe("plan");
      expect((await prompt(c.ctx, sessionId, "Two")).stopReason).toBe("end_turn");
      expect(c.client.notifications[2]?.update.sessionUpdate).toBe("user_message_chunk");
    } finally {
      await c.close();
    }
  });
});

describe("session/list", () => {
  test("pages with a cursor, newest first, filtered by cwd, with title and updatedAt", async () => {
    await withAgent("scripted/plain", async (c, box) => {
      const ids: string[] = [];
      for (let i = 0; i < 52; i++) ids.push((await newSession(c.ctx, box.workspace)).sessionId);
      for (const id of ids.slice(1)) await prompt(c.ctx, id, "Hello");
      await prompt(c.ctx, ids[0]!, "The titled one");
      const other = (await newSession(c.ctx, box.root)).sessionId;
      await prompt(c.ctx, other, "Elsewhere");
      const first = await c.ctx.request(acp.methods.agent.session.list, { cwd: box.workspace });
      expect(first.sessions.length).toBe(50);
      expect(first.sessions[0]).toMatchObject({ sessionId: ids[0], title: "The titled one", cwd: box.workspace });
      expect(first.sessions[0]?.updatedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(first.nextCursor).toBeString();
      const second = await c.ctx.request(acp.methods.agent.session.list, {
        cwd: box.workspace,
        cursor: first.nextCursor!,
      });
      expect(second.sessions.length).toBe(2);
      expect(second.nextCursor).toBeUndefined();
      const all = new Set([...first.sessions, ...second.sessions].map((s) => s.sessionId));
      expect(all.size).toBe(52);
      expect(all.has(other)).toBe(false);
      const error = await errorOf(c.ctx.request(acp.methods.agent.session.list, { cursor: "garbage" }));
      expect(error.code).toBe(-32602);
    });
  });

  test("returns an empty list when nothing matches", async () => {
    await withAgent("scripted/plain", async (c) => {
      expect((await c.ctx.request(acp.methods.agent.session.list, {})).sessions).toEqual([]);
    });
  });
});

describe("session/close and session/delete", () => {
  test("close cancels running work; the session is no longer open", async () => {
    await withAgent("scripted/slow", async (c, box) => {
      const { sessionId } = await newSession(c.ctx, box.workspace);
      const turn = prompt(c.ctx, sessionId, "Go");
      await until(
        () => c.client.notifications.some((n) => n.update.sessionUpdate === "agent_thought_chunk"),
        "thinking",
      );
      await c.ctx.request(acp.methods.agent.session.close, { sessionId });
      expect((await turn).stopReason).toBe("cancelled");
      expect((await errorOf(prompt(c.ctx, sessionId, "More"))).code).toBe(-32002);
    });
  });

  test("delete removes the session from the journal", async () => {
    await withAgent("scripted/plain", async (c, box) => {
      const { sessionId } = await newSession(c.ctx, box.workspace);
      await prompt(c.ctx, sessionId, "Hi");
      await c.ctx.request(acp.methods.agent.session.delete, { sessionId });
      expect((await c.ctx.request(acp.methods.agent.session.list, {})).sessions).toEqual([]);
      expect((await errorOf(load(c.ctx, sessionId, box.workspace))).code).toBe(-32002);
    });
  });
});

describe("config options", () => {
  test("set_mode and the mode option stay in step, shown as updates", async () => {
    await withAgent("scripted/plain", async (c, box) => {
      const { sessionId } = await newSession(c.ctx, box.workspace);
      await c.ctx.request(acp.methods.agent.session.setMode, { sessionId, modeId: "acceptEdits" });
      let view = c.client.view(sessionId);
      expect(view.modeId).toBe("acceptEdits");
      expect(view.configOptions?.find((o) => o.id === "mode")).toMatchObject({ currentValue: "acceptEdits" });
      const response = await c.ctx.request(acp.methods.agent.session.setConfigOption, {
        sessionId,
        configId: "mode",
        value: "plan",
      });
      view = c.client.view(sessionId);
      expect(view.modeId).toBe("plan");
      expect(response.configOptions.find((o) => o.id === "mode")).toMatchObject({ currentValue: "plan" });
    });
  });

  test("unknown options and values are -32602", async () => {
    await withAgent("scripted/plain", async (c, box) => {
      const { sessionId } = await newSession(c.ctx, box.workspace);
      const set = (configId: string, value: string) =>
        c.ctx.request(acp.methods.agent.session.setConfigOption, { sessionId, configId, value });
      expect((await errorOf(set("colour", "blue"))).code).toBe(-32602);
      expect((await errorOf(set("mode", "yolo"))).code).toBe(-32602);
      expect((await errorOf(set("model", "nowhere/model"))).code).toBe(-32602);
      expect((await errorOf(set("model", "scripted/not-a-scenario"))).code).toBe(-32602);
      expect((await errorOf(set("thought_level", "extreme"))).code).toBe(-32602);
    });
  });

  test("thought level off stops thinking from the next turn", async () => {
    await withAgent("scripted/thinking", async (c, box) => {
      const { sessionId } = await newSession(c.ctx, box.workspace);
      await c.ctx.request(acp.methods.agent.session.setConfigOption, {
        sessionId,
        configId: "thought_level",
        value: "off",
      });
      await prompt(c.ctx, sessionId, "Hi");
      expect(c.client.notifications.some((n) => n.update.sessionUpdate === "agent_thought_chunk")).toBe(false);
    });
  });

  test("switching model takes effect at the next turn", async () => {
    await withAgent("scripted/plain", async (c, box) => {
      const { sessionId } = await newSession(c.ctx, box.workspace);
      await c.ctx.request(acp.methods.agent.session.setConfigOption, {
        sessionId,
        configId: "model",
        value: "scripted/thinking",
      });
      await prompt(c.ctx, sessionId, "Hi");
      expect(c.client.notifications.some((n) => n.update.sessionUpdate === "agent_thought_chunk")).toBe(true);
    });
  });
});

describe("reloading a session open on this connection", () => {
  test("the instance it replaces ends properly: its SessionEnd hooks run once", async () => {
    const box = sandbox("scripted/plain");
    const ended = join(box.root, "ended");
    writeHooks(box, "claude-user", { SessionEnd: [{ hooks: [command(`echo x >> ${ended}`)] }] });
    const c = await connectInProcess(box.env);
    try {
      const { sessionId } = await newSession(c.ctx, box.workspace);
      await prompt(c.ctx, sessionId, "Hi");
      expect(existsSync(ended)).toBe(false);
      await load(c.ctx, sessionId, box.workspace);
      expect(readFileSync(ended, "utf8")).toBe("x\n");
    } finally {
      await c.close();
    }
  });
});
