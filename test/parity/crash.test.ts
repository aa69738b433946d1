/**
 * A session killed (kill -9) in the middle of a tool call, then reopened in a fresh process:
 * everything shown live comes back, and each open call gets one interruption mark, computed at
 * load and never written. When the session continues, the same mark is journaled, so later
 * reloads show it too.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { choose, type PermissionPolicy } from "../../src/client/view-client.ts";
import { diffValues } from "../../src/view/view-diff.ts";
import { comparable } from "../../src/cli/demo.ts";
import { connectProcess, load, newSession, prompt, until, type Connected } from "../support/acp-session.ts";
import { dumpDatabase } from "../support/db-dump.ts";
import { interruptedOf, textOf } from "../support/cards.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";
import { cards } from "./harness.ts";

/** Starts a prompt in a spawned agent, waits for `ready`, then kills the agent with SIGKILL. */
async function killedDuring(box: Sandbox, text: string, ready: (c: Connected) => boolean, policy: PermissionPolicy) {
  const live = await connectProcess(box.env, { policy });
  const { sessionId } = await newSession(live.ctx, box.workspace);
  void prompt(live.ctx, sessionId, text).catch(() => undefined);
  await until(() => ready(live), "the call to be under way");
  live.agent!.kill(9);
  await live.agent!.exited;
  return { sessionId, live };
}

const reopen = async (box: Sandbox, sessionId: string) => {
  const c = await connectProcess(box.env, { policy: choose("allow_once") });
  await load(c.ctx, sessionId, box.workspace);
  return c;
};

function killGroupFrom(pidFile: string) {
  try {
    process.kill(-Number(readFileSync(pidFile, "utf8").trim()), "SIGKILL");
  } catch {
    // already gone
  }
}

describe("a session killed during a tool call", () => {
  test("a running command is shown interrupted (it may have run), and only that differs from live", async () => {
    const box = sandbox("scripted/command");
    const pidFile = join(box.root, "command.pid");
    const { sessionId, live } = await killedDuring(
      box,
      `echo $$ > ${pidFile}; echo started; sleep 30`,
      (c) =>
        c.client.notifications.some(
          (n) => n.update.sessionUpdate === "tool_call_update" && textOf(n.update.content ?? []).includes("started"),
        ),
      choose("allow_once"),
    );
    killGroupFrom(pidFile);
    const before = dumpDatabase(join(box.home, "journal.db"));
    const reopened = await reopen(box, sessionId);
    try {
      const [card] = cards(reopened.client.view(sessionId));
      expect(card?.status).toBe("failed");
      expect(interruptedOf(card)).toEqual({ mayHaveRun: true });
      expect(textOf(card?.content)).toContain("started");
      expect(textOf(card?.content)).toContain(
        "Interrupted: verbatim stopped while this call was running; its outcome is unknown.",
      );
      const differences = diffValues(
        comparable(live.client.view(sessionId)),
        comparable(reopened.client.view(sessionId)),
      );
      expect(differences.length).toBeGreaterThan(0);
      expect(differences.every((d) => d.startsWith(`$.toolCalls.${card!.toolCallId}.`))).toBe(true);
      // The marks are computed at load: loading wrote nothing.
      expect(dumpDatabase(join(box.home, "journal.db")).facts).toEqual(before.facts);
    } finally {
      await reopened.close();
    }
  });

  test("a call waiting for permission is shown interrupted as never run", async () => {
    const box = sandbox("scripted/edit");
    const { sessionId } = await killedDuring(
      box,
      "Fix line three",
      (c) => c.client.permissionRequests.length > 0,
      () => new Promise(() => {}),
    );
    const reopened = await reopen(box, sessionId);
    try {
      const edit = cards(reopened.client.view(sessionId))[1];
      expect(edit?.status).toBe("failed");
      expect(interruptedOf(edit)).toEqual({ mayHaveRun: false });
      expect(textOf(edit?.content)).toContain("it never ran");
      expect(reopened.client.permissionRequests).toEqual([]);
    } finally {
      await reopened.close();
    }
  });

  test("continuing the session journals the marks: a later reload shows what the continuing client saw", async () => {
    const box = sandbox("scripted/command");
    const pidFile = join(box.root, "command.pid");
    const { sessionId } = await killedDuring(
      box,
      `echo $$ > ${pidFile}; echo started; sleep 30`,
      (c) =>
        c.client.notifications.some(
          (n) => n.update.sessionUpdate === "tool_call_update" && textOf(n.update.content ?? []).includes("started"),
        ),
      choose("allow_once"),
    );
    killGroupFrom(pidFile);
    const continued = await reopen(box, sessionId);
    try {
      expect((await prompt(continued.ctx, sessionId, "echo after")).stopReason).toBe("end_turn");
    } finally {
      await continued.close();
    }
    const later = await reopen(box, sessionId);
    try {
      const view = later.client.view(sessionId);
      expect(cards(view).map((c) => c.status)).toEqual(["failed", "completed"]);
      expect(interruptedOf(cards(view)[0])).toEqual({ mayHaveRun: true });
      expect(diffValues(comparable(continued.client.view(sessionId)), comparable(view))).toEqual([]);
    } finally {
      await later.close();
    }
  });
});
