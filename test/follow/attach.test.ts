/**
 * `_verbatim/session/attach`, driven as editors would: one verbatim process runs a session for
 * its client, another process's client attaches to it and is shown, field by field, what the
 * writer's client is shown, live; a reload then shows the same. The follower reads the journal
 * only, so this holds on one machine (SQLite) and across machines (PostgreSQL).
 */
import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { connectProcess, errorOf, load, newSession, prompt, until } from "../support/acp-session.ts";
import { dropRetracted, rewind } from "../support/rewind.ts";
import { attach, detach, expectReloadShows, expectSameView, positionOf, withClients } from "../support/attach.ts";
import { choose } from "../../src/client/view-client.ts";
import { openJournal } from "../../src/core/config/open-journal.ts";
import { interruptedOf, textOf } from "../support/cards.ts";
import { freshDatabase } from "../support/postgres-server.ts";
import { sandbox } from "../support/workspace.ts";

describe("a client attached to a session another process runs", () => {
  for (const store of ["sqlite", "postgres"] as const)
    test(`is shown each update as the writer's client is, and a reload shows the same (${store})`, async () => {
      const box = sandbox("scripted/demo");
      if (store === "postgres") box.env.VERBATIM_JOURNAL = await freshDatabase();
      await withClients(box, async (writer, follower) => {
        const { sessionId } = await newSession(writer.ctx, box.workspace);
        const answer = await attach(follower.ctx, { sessionId });
        expect(answer).toMatchObject({ sessionId, role: "observer", writer: { pid: writer.agent!.pid } });
        await prompt(writer.ctx, sessionId, "give me an overview");
        await prompt(writer.ctx, sessionId, "and read the missing file");
        await expectSameView(writer, follower, sessionId);
        await expectReloadShows(box, follower, sessionId);
      });
    }, 60_000);

  test("is answered the session's mode and config options, as a reload is", async () => {
    const box = sandbox("scripted/plain");
    await withClients(box, async (writer, follower) => {
      const { sessionId } = await newSession(writer.ctx, box.workspace);
      await writer.ctx.request(acp.methods.agent.session.setMode, { sessionId, modeId: "plan" });
      const answer = await attach(follower.ctx, { sessionId });
      expect(answer.modes.currentModeId).toBe("plan");
      const reopened = await connectProcess(box.env);
      try {
        const loaded = await load(reopened.ctx, sessionId, box.workspace);
        expect({ modes: answer.modes, configOptions: answer.configOptions }).toEqual({
          modes: loaded.modes!,
          configOptions: loaded.configOptions!,
        });
      } finally {
        await reopened.close();
      }
    });
  }, 60_000);

  test("joining in the middle of a turn is shown the turn so far, then the rest of it live", async () => {
    const box = sandbox("scripted/slow");
    await withClients(box, async (writer, follower) => {
      const { sessionId } = await newSession(writer.ctx, box.workspace);
      const turn = prompt(writer.ctx, sessionId, "go slowly");
      await until(
        () => writer.client.notifications.some((n) => n.update.sessionUpdate === "agent_message_chunk"),
        "the answer to be under way",
      );
      await attach(follower.ctx, { sessionId });
      await turn;
      await expectSameView(writer, follower, sessionId);
      // What was recorded before the attach came as history (no position); the rest live, with positions.
      const positions = follower.client.notifications.map(positionOf);
      expect(positions[0]).toBeUndefined();
      expect(positions.at(-1)).toBeGreaterThan(0);
    });
  }, 60_000);

  test("each live update carries its record's position, in journal order", async () => {
    const box = sandbox("scripted/demo");
    await withClients(box, async (writer, follower) => {
      const { sessionId } = await newSession(writer.ctx, box.workspace);
      const { position } = await attach(follower.ctx, { sessionId });
      await prompt(writer.ctx, sessionId, "give me an overview");
      await expectSameView(writer, follower, sessionId);
      const live = follower.client.notifications.map(positionOf).filter((p) => p !== undefined);
      expect(live.length).toBeGreaterThan(0);
      expect(live[0]).toBeGreaterThan(position);
      expect(live).toEqual([...live].sort((a, b) => a - b));
    });
  }, 60_000);

  test("resuming after a cut with replayFrom is sent only what followed that position", async () => {
    const box = sandbox("scripted/demo");
    await withClients(box, async (writer, follower) => {
      const { sessionId } = await newSession(writer.ctx, box.workspace);
      await prompt(writer.ctx, sessionId, "give me an overview");
      const { position } = await attach(follower.ctx, { sessionId });
      await detach(follower.ctx, sessionId);
      const historyCount = follower.client.notifications.length;
      await prompt(writer.ctx, sessionId, "and read the missing file");
      await attach(follower.ctx, { sessionId, replayFrom: position });
      await expectSameView(writer, follower, sessionId);
      const resumed = follower.client.notifications.slice(historyCount).map(positionOf);
      expect(resumed.length).toBeGreaterThan(0);
      expect(resumed.every((p) => p !== undefined && p > position)).toBe(true);
    });
  }, 60_000);

  test("with historyPolicy none is sent nothing recorded before it, then what follows", async () => {
    const box = sandbox("scripted/demo");
    await withClients(box, async (writer, follower) => {
      const { sessionId } = await newSession(writer.ctx, box.workspace);
      await prompt(writer.ctx, sessionId, "give me an overview");
      const { position } = await attach(follower.ctx, { sessionId, historyPolicy: "none" });
      expect(follower.client.notifications).toEqual([]);
      await prompt(writer.ctx, sessionId, "and read the missing file");
      await until(() => follower.client.notifications.length > 0, "the second turn to reach the follower");
      await until(
        () => Object.values(follower.client.view(sessionId).messages).some((m) => m.role === "user"),
        "the second prompt to reach the follower",
      );
      const shown = JSON.stringify(follower.client.view(sessionId));
      expect(shown).toContain("and read the missing file");
      expect(shown).not.toContain("give me an overview");
      expect(follower.client.notifications.every((n) => (positionOf(n) ?? 0) > position)).toBe(true);
    });
  }, 60_000);

  test("is never sent an update of another session", async () => {
    const box = sandbox("scripted/demo");
    await withClients(box, async (writer, follower) => {
      const followed = (await newSession(writer.ctx, box.workspace)).sessionId;
      const other = (await newSession(writer.ctx, box.workspace)).sessionId;
      await attach(follower.ctx, { sessionId: followed });
      await prompt(writer.ctx, other, "give me an overview");
      await prompt(writer.ctx, followed, "give me an overview");
      await expectSameView(writer, follower, followed);
      expect(new Set(follower.client.notifications.map((n) => n.sessionId))).toEqual(new Set([followed]));
    });
  }, 60_000);

  test("after a detach is sent nothing more", async () => {
    const box = sandbox("scripted/demo");
    await withClients(box, async (writer, follower) => {
      const { sessionId } = await newSession(writer.ctx, box.workspace);
      await attach(follower.ctx, { sessionId });
      expect(await detach(follower.ctx, sessionId)).toEqual({});
      const before = follower.client.notifications.length;
      await prompt(writer.ctx, sessionId, "give me an overview");
      await Bun.sleep(300);
      expect(follower.client.notifications.length).toBe(before);
    });
  }, 60_000);

  test("is told what a rewind took back: its view drops it as the rewinding client's does, and a reload shows the same", async () => {
    const box = sandbox("scripted/demo");
    await withClients(box, async (writer, follower) => {
      const { sessionId } = await newSession(writer.ctx, box.workspace);
      await attach(follower.ctx, { sessionId });
      await prompt(writer.ctx, sessionId, "give me an overview");
      await prompt(writer.ctx, sessionId, "and read the missing file");
      const firstPrompt = Object.values(writer.client.view(sessionId).messages).find((m) => m.role === "user")!;
      const answer = await rewind(writer.ctx, { sessionId, toMessageId: firstPrompt.id });
      dropRetracted(writer.client.view(sessionId), answer._meta.verbatim.retracted);
      expect(answer._meta.verbatim.retracted.messageIds.length).toBeGreaterThan(0);
      await expectSameView(writer, follower, sessionId);
      await expectReloadShows(box, follower, sessionId);
    });
  }, 60_000);

  test("that then loads the session stops following it: nothing is sent twice", async () => {
    const box = sandbox("scripted/demo");
    await withClients(box, async (writer, follower) => {
      const { sessionId } = await newSession(writer.ctx, box.workspace);
      await attach(follower.ctx, { sessionId });
      await prompt(writer.ctx, sessionId, "give me an overview");
      await expectSameView(writer, follower, sessionId);
      const loadedFrom = follower.client.notifications.length;
      await load(follower.ctx, sessionId, box.workspace);
      await prompt(writer.ctx, sessionId, "and read the missing file");
      await Bun.sleep(300);
      expect(follower.client.notifications.slice(loadedFrom).filter((n) => positionOf(n) !== undefined)).toEqual([]);
      expect((await errorOf(detach(follower.ctx, sessionId))).code).toBe(-32002);
    });
  }, 60_000);

  test("sees the calls left open marked interrupted when the writer is killed, as a reload shows them", async () => {
    const box = sandbox("scripted/command");
    const pidFile = join(box.root, "command.pid");
    await withClients(box, async (writer, follower) => {
      const { sessionId } = await newSession(writer.ctx, box.workspace);
      await attach(follower.ctx, { sessionId });
      void prompt(writer.ctx, sessionId, `echo $$ > ${pidFile}; echo started; sleep 30`).catch(() => undefined);
      await until(
        () =>
          follower.client.notifications.some(
            (n) => n.update.sessionUpdate === "tool_call_update" && textOf(n.update.content ?? []).includes("started"),
          ),
        "the command's output to reach the follower",
      );
      writer.agent!.kill(9);
      await writer.agent!.exited;
      try {
        process.kill(-Number(readFileSync(pidFile, "utf8").trim()), "SIGKILL");
      } catch {
        // already gone
      }
      await until(
        () => Object.values(follower.client.view(sessionId).toolCalls).some((c) => interruptedOf(c) !== undefined),
        "the follower to mark the open call",
      );
      await expectReloadShows(box, follower, sessionId);
    });
  }, 60_000);
});

describe("a subagent's session", () => {
  test("can be followed while its Task runs: its answer streams live, and a reload of it shows the same", async () => {
    const box = sandbox("scripted/subagent");
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let asked = false;
    // The child's command waits for its permission answer: the follower attaches meanwhile.
    const writer = await connectProcess(box.env, {
      policy: async (request) => {
        asked = true;
        await released;
        return choose("allow_once")(request);
      },
    });
    const follower = await connectProcess(box.env);
    try {
      const { sessionId } = await newSession(writer.ctx, box.workspace);
      const turn = prompt(writer.ctx, sessionId, "Inspect it with a command");
      await until(() => asked, "the child's command to ask for permission");
      const store = openJournal(box.env);
      const [child] = await store.children(sessionId);
      await store.close();
      const childId = child!.sessionId;
      await attach(follower.ctx, { sessionId: childId });
      release();
      await turn;
      await until(
        () => JSON.stringify(follower.client.view(childId).messages).includes("The command says"),
        "the child's last answer to reach the follower",
      );
      const streamed = follower.client.notifications.filter(
        (n) => n.update.sessionUpdate === "agent_message_chunk" && positionOf(n) !== undefined,
      );
      expect(streamed.length).toBeGreaterThan(0);
      await expectReloadShows(box, follower, childId);
    } finally {
      await Promise.all([writer.close(), follower.close()]);
    }
  }, 60_000);
});

describe("attaching refuses, with the protocol's errors", () => {
  test("an unknown session, a position past the session's end, a role it does not serve, a detach of what is not attached", async () => {
    const box = sandbox("scripted/demo");
    await withClients(box, async (writer, follower) => {
      const { sessionId } = await newSession(writer.ctx, box.workspace);
      expect((await errorOf(attach(follower.ctx, { sessionId: "ses_unknown" }))).code).toBe(-32002);
      const past = await errorOf(attach(follower.ctx, { sessionId, replayFrom: 1_000_000 }));
      expect(past.code).toBe(-32602);
      expect(past.message).toContain("past the session's last");
      expect((await errorOf(attach(follower.ctx, { sessionId, role: "owner" }))).code).toBe(-32602);
      expect((await errorOf(detach(follower.ctx, sessionId))).code).toBe(-32002);
      // The writer's own connection has the session open: its updates are sent there already.
      expect((await errorOf(attach(writer.ctx, { sessionId }))).code).toBe(-32600);
    });
  }, 60_000);
});
