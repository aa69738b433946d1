/**
 * A fork and its parent live on their own: each is unchanged by the other's turns, deleting
 * either leaves the other whole, a turn a crash left open is forked as it stands, and a turn
 * running in the parent is refused.
 */
import { describe, expect, test } from "bun:test";
import * as acp from "@agentclientprotocol/sdk";
import { join } from "node:path";
import { comparable } from "../../src/cli/demo.ts";
import { asItsSource } from "../support/fork-view.ts";
import { choose } from "../../src/client/view-client.ts";
import { diffValues } from "../../src/view/view-diff.ts";
import { interruptedOf, textOf } from "../support/cards.ts";
import { connectProcess, errorOf, fork, load, newSession, prompt, until } from "../support/acp-session.ts";
import { dumpDatabase } from "../support/db-dump.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";
import { cards } from "../parity/harness.ts";

/** The stored facts of one session, as rows. */
const factsOf = (box: Sandbox, sessionId: string) =>
  (dumpDatabase(join(box.home, "journal.db")).facts as string[]).filter(
    (row) => (JSON.parse(row) as { session_id: string }).session_id === sessionId,
  );

/** A parent with one turn and a fork of it, made in one process; returns the parent's live view too. */
async function parentAndFork(box: Sandbox) {
  const live = await connectProcess(box.env);
  try {
    const parent = (await newSession(live.ctx, box.workspace)).sessionId;
    await prompt(live.ctx, parent, "Read the README");
    const { sessionId: forked } = await fork(live.ctx, { sessionId: parent, cwd: box.workspace, mcpServers: [] });
    return { parent, forked, view: live.client.view(parent) };
  } finally {
    await live.close();
  }
}

async function loaded(box: Sandbox, sessionId: string) {
  const c = await connectProcess(box.env);
  try {
    await load(c.ctx, sessionId, box.workspace);
    return c.client.view(sessionId);
  } finally {
    await c.close();
  }
}

describe("a fork and its parent", () => {
  test("each is unchanged by the other's turns", async () => {
    const box = sandbox("scripted/demo");
    const { parent, forked } = await parentAndFork(box);
    const parentBefore = factsOf(box, parent);
    const c = await connectProcess(box.env);
    try {
      await load(c.ctx, forked, box.workspace);
      expect((await prompt(c.ctx, forked, "Only on the fork")).stopReason).toBe("end_turn");
      expect(factsOf(box, parent)).toEqual(parentBefore);
      const forkBefore = factsOf(box, forked);
      await load(c.ctx, parent, box.workspace);
      expect((await prompt(c.ctx, parent, "Only on the parent")).stopReason).toBe("end_turn");
      expect(factsOf(box, forked)).toEqual(forkBefore);
    } finally {
      await c.close();
    }
    const prompts = (view: ReturnType<typeof comparable>) =>
      Object.values(view.messages)
        .filter((m) => m.role === "user")
        .map((m) => textOf(m.content.map((content) => ({ type: "content" as const, content }))));
    expect(prompts(comparable(await loaded(box, forked)))).toEqual(["Read the README", "Only on the fork"]);
    expect(prompts(comparable(await loaded(box, parent)))).toEqual(["Read the README", "Only on the parent"]);
  });

  test("deleting the parent leaves the fork whole", async () => {
    const box = sandbox("scripted/demo");
    const { parent, forked, view } = await parentAndFork(box);
    const c = await connectProcess(box.env);
    try {
      await c.ctx.request(acp.methods.agent.session.delete, { sessionId: parent });
    } finally {
      await c.close();
    }
    expect(factsOf(box, parent)).toEqual([]);
    expect(diffValues(comparable(view), comparable(asItsSource(await loaded(box, forked), view)))).toEqual([]);
  });

  test("deleting the fork leaves the parent whole", async () => {
    const box = sandbox("scripted/demo");
    const { parent, forked, view } = await parentAndFork(box);
    const c = await connectProcess(box.env);
    try {
      await c.ctx.request(acp.methods.agent.session.delete, { sessionId: forked });
    } finally {
      await c.close();
    }
    expect(factsOf(box, forked)).toEqual([]);
    expect(diffValues(comparable(view), comparable(await loaded(box, parent)))).toEqual([]);
  });

  test("a turn running in the parent is refused with a typed error, and no session is made", async () => {
    const box = sandbox("scripted/edit");
    const c = await connectProcess(box.env, { policy: () => new Promise(() => {}) });
    try {
      const parent = (await newSession(c.ctx, box.workspace)).sessionId;
      void prompt(c.ctx, parent, "Fix line three").catch(() => undefined);
      await until(() => c.client.permissionRequests.length > 0, "the permission question");
      const error = await errorOf(fork(c.ctx, { sessionId: parent, cwd: box.workspace, mcpServers: [] }));
      expect(error.code).toBe(-32600);
      expect(error.data).toMatchObject({ reason: "turn_running", sessionId: parent });
      const { sessions } = await c.ctx.request(acp.methods.agent.session.list, {});
      expect(sessions.map((s) => s.sessionId)).toEqual([parent]);
    } finally {
      await c.close();
    }
  });

  test("an unknown session is not found", async () => {
    const box = sandbox("scripted/demo");
    const c = await connectProcess(box.env);
    try {
      const error = await errorOf(fork(c.ctx, { sessionId: "ses_nothing", cwd: box.workspace, mcpServers: [] }));
      expect(error.code).toBe(-32002);
    } finally {
      await c.close();
    }
  });
});

describe("a fork of a session a crash left mid-call", () => {
  test("shows the call interrupted as its parent does, and continuing it journals the mark in the fork alone", async () => {
    const box = sandbox("scripted/edit");
    const live = await connectProcess(box.env, { policy: () => new Promise(() => {}) });
    const parent = (await newSession(live.ctx, box.workspace)).sessionId;
    void prompt(live.ctx, parent, "Fix line three").catch(() => undefined);
    await until(() => live.client.permissionRequests.length > 0, "the permission question");
    live.agent!.kill(9);
    await live.agent!.exited;

    const c = await connectProcess(box.env, { policy: choose("allow_once") });
    let forked = "";
    try {
      await load(c.ctx, parent, box.workspace);
      forked = (await fork(c.ctx, { sessionId: parent, cwd: box.workspace, mcpServers: [] })).sessionId;
    } finally {
      await c.close();
    }
    const parentView = await loaded(box, parent);
    const forkView = await loaded(box, forked);
    const edit = cards(forkView)[1];
    expect(interruptedOf(edit)).toEqual({ mayHaveRun: false });
    expect(diffValues(comparable(parentView), comparable(asItsSource(forkView, parentView)))).toEqual([]);

    const parentBefore = factsOf(box, parent);
    const again = await connectProcess(box.env, { policy: choose("allow_once") });
    try {
      await load(again.ctx, forked, box.workspace);
      expect((await prompt(again.ctx, forked, "Go on")).stopReason).toBe("end_turn");
    } finally {
      await again.close();
    }
    expect(factsOf(box, forked).some((row) => row.includes('"kind":"session_recovered"'))).toBe(true);
    expect(factsOf(box, parent)).toEqual(parentBefore);
    expect(diffValues(comparable(parentView), comparable(await loaded(box, parent)))).toEqual([]);
  });
});
