/**
 * Lifecycle notifications to the host: in order through one worker per session, a bounded queue
 * that drops the oldest when the command stalls, never slowing the agent loop, and nothing from a
 * closed session delivered after its successor starts.
 */
import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LifecycleNotifier, type Deliver } from "../../src/core/hooks/notify/lifecycle-notifier.ts";
import { hookSettings } from "../../src/core/hooks/settings.ts";
import { connectInProcess, newSession, prompt, until } from "../support/acp-session.ts";
import { script } from "../support/hooks.ts";
import { alive, allGone, pidsFrom } from "../support/processes.ts";
import { sandbox } from "../support/workspace.ts";

/** A deliverer that records what it delivers and can be held on a given event. */
function recorder() {
  const delivered: string[] = [];
  const started: string[] = [];
  let hold: { payload: string; release: () => void } | undefined;
  let holdOn: string | undefined;
  const deliver: Deliver = async (payload, signal) => {
    started.push(payload);
    if (payload === holdOn) {
      holdOn = undefined;
      await new Promise<void>((resolve) => {
        hold = { payload, release: resolve };
        signal.addEventListener("abort", () => resolve(), { once: true });
      });
      if (signal.aborted) return;
    }
    delivered.push(payload);
  };
  return {
    deliver,
    delivered,
    started,
    holdOn: (payload: string) => void (holdOn = payload),
    held: () => hold?.payload,
    release: () => hold?.release(),
  };
}

describe("the lifecycle notifier", () => {
  test("delivers in the order emitted: busy before done", async () => {
    const r = recorder();
    const notifier = new LifecycleNotifier(r.deliver);
    for (const event of ["busy", "needs-you", "done"]) notifier.emit(event);
    await notifier.idle();
    expect(r.delivered).toEqual(["busy", "needs-you", "done"]);
  });

  test("a full queue drops the oldest events; the newest survive, in order", async () => {
    const r = recorder();
    const notifier = new LifecycleNotifier(r.deliver, { capacity: 4 });
    r.holdOn("e0");
    notifier.emit("e0");
    await until(() => r.held() === "e0", "the worker to take e0");
    // The worker is parked on e0: emitting never waits, whatever the command does.
    for (let i = 1; i <= 9; i++) notifier.emit(`e${i}`);
    expect(notifier.dropped).toBe(5);
    r.release();
    await notifier.idle();
    expect(r.delivered).toEqual(["e0", "e6", "e7", "e8", "e9"]);
  });

  test("close abandons what is queued and stops the delivery in flight; nothing is delivered after", async () => {
    const r = recorder();
    const notifier = new LifecycleNotifier(r.deliver);
    r.holdOn("busy");
    notifier.emit("busy");
    await until(() => r.held() === "busy", "the worker to take busy");
    notifier.emit("done");
    await notifier.close();
    notifier.emit("late");
    r.release();
    await Bun.sleep(50);
    expect(r.started).toEqual(["busy"]);
    expect(r.delivered).toEqual([]);
  });
});

describe("lifecycle notifications from the agent", () => {
  const events = (log: string) =>
    existsSync(log)
      ? readFileSync(log, "utf8")
          .trim()
          .split("\n")
          .filter(Boolean)
          .map((l) => JSON.parse(l) as { hook_event_name: string; session_id: string })
      : [];

  test("busy, needs-you and done reach the notify command in order, with Claude Code's field names", async () => {
    const box = sandbox("scripted/command");
    const log = join(box.root, "notify.jsonl");
    const notify = script(box, "notify.sh", `payload=$(cat); printf '%s\\n' "$payload" >> ${log}`);
    const agent = await connectInProcess({ ...box.env, VERBATIM_NOTIFY_COMMAND: notify });
    const { sessionId } = await newSession(agent.ctx, box.workspace);
    await prompt(agent.ctx, sessionId, "echo hi");
    await until(() => events(log).length === 3, "three lifecycle events");
    await agent.close();
    const seen = events(log);
    expect(seen.map((e) => e.hook_event_name)).toEqual(["UserPromptSubmit", "PermissionRequest", "Stop"]);
    expect(seen.every((e) => e.session_id === sessionId)).toBe(true);
    expect(seen[1]).toMatchObject({ tool_name: "Bash", cwd: box.workspace, transcript_path: null });
  });

  test("a notify command that hangs does not slow the turn, and is killed when the session closes", async () => {
    const box = sandbox("scripted/plain");
    const pidFile = join(box.root, "notify.pid");
    const notify = script(box, "notify.sh", `cat > /dev/null; echo $$ > ${pidFile}; sleep 100`);
    const agent = await connectInProcess({ ...box.env, VERBATIM_NOTIFY_COMMAND: notify });
    const { sessionId } = await newSession(agent.ctx, box.workspace);
    expect((await prompt(agent.ctx, sessionId, "hello")).stopReason).toBe("end_turn");
    expect((await prompt(agent.ctx, sessionId, "again")).stopReason).toBe("end_turn");
    const [pid] = await pidsFrom([pidFile]);
    expect(alive(pid!)).toBe(true);
    await agent.ctx.request(acp.methods.agent.session.close, { sessionId });
    expect(await allGone([pid!], 2000)).toBe(true);
    await agent.close();
  });

  test("a closed session's queued done never arrives after the next session's busy", async () => {
    const box = sandbox("scripted/plain");
    const log = join(box.root, "notify.jsonl");
    const held = join(box.root, "held");
    // The first delivery (the first session's busy) is held; every later one goes straight through.
    const notify = script(
      box,
      "notify.sh",
      `payload=$(cat); printf '%s\\n' "$payload" >> ${log}; if [ ! -e ${held} ]; then touch ${held}; sleep 100; fi`,
    );
    const agent = await connectInProcess({ ...box.env, VERBATIM_NOTIFY_COMMAND: notify });
    const first = (await newSession(agent.ctx, box.workspace)).sessionId;
    await prompt(agent.ctx, first, "hello");
    await until(() => existsSync(held), "the first delivery to be held");
    // The first session's done is queued behind the held busy; closing it abandons both.
    await agent.ctx.request(acp.methods.agent.session.close, { sessionId: first });
    const second = (await newSession(agent.ctx, box.workspace)).sessionId;
    await prompt(agent.ctx, second, "hello");
    await until(
      () => events(log).some((e) => e.session_id === second && e.hook_event_name === "Stop"),
      "the second session's done",
    );
    await agent.close();
    await Bun.sleep(200);
    expect(events(log).map((e) => `${e.session_id === first ? "first" : "second"} ${e.hook_event_name}`)).toEqual([
      "first UserPromptSubmit",
      "second UserPromptSubmit",
      "second Stop",
    ]);
  });

  test("the notify command comes from VERBATIM_NOTIFY_COMMAND, else the user config's notify.command; with neither, none", () => {
    const box = sandbox();
    expect(hookSettings(box.env).notifyCommand).toBeUndefined();
    mkdirSync(join(box.configHome, "verbatim"), { recursive: true });
    writeFileSync(
      join(box.configHome, "verbatim", "config.json"),
      JSON.stringify({ notify: { command: "host-notify --from-config" } }),
    );
    expect(hookSettings(box.env).notifyCommand).toBe("host-notify --from-config");
    expect(hookSettings({ ...box.env, VERBATIM_NOTIFY_COMMAND: "host-notify --from-env" }).notifyCommand).toBe(
      "host-notify --from-env",
    );
  });
});
