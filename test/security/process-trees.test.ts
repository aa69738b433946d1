/**
 * A kill reaches every descendant of a command, `setsid` children included (they leave the
 * command's process group): at a hook's timeout, at a Bash timeout, and at a Bash cancel.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { connectProcess, newSession, prompt } from "../support/acp-session.ts";
import { command, writeHooks } from "../support/hooks.ts";
import { alive, allGone, pidsFrom } from "../support/processes.ts";
import { sandbox } from "../support/workspace.ts";

/** Started by a test; killed at the end whatever happened, so a failing test leaves nothing behind. */
const started: number[] = [];
afterAll(() => {
  for (const pid of started) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone, as it should be
    }
  }
});

/** A shell line that starts a `setsid` child which writes its pid to `pidFile` and sleeps. */
const detachedSleeper = (pidFile: string) => `setsid sh -c 'echo $$ > ${pidFile}; exec sleep 300' & wait`;

async function sleeperPid(pidFile: string): Promise<number> {
  const [pid] = await pidsFrom([pidFile]);
  started.push(pid as number);
  expect(alive(pid as number)).toBe(true);
  return pid as number;
}

describe("a command's setsid child", () => {
  test("is killed when a hook times out", async () => {
    const box = sandbox("scripted/command");
    const pidFile = join(box.root, "hook-child.pid");
    writeHooks(box, "claude-user", {
      PreToolUse: [{ matcher: "Bash", hooks: [command(detachedSleeper(pidFile), { timeout: 1 })] }],
    });
    const c = await connectProcess(box.env);
    try {
      const { sessionId } = await newSession(c.ctx, box.workspace);
      const turn = prompt(c.ctx, sessionId, "echo hi");
      const pid = await sleeperPid(pidFile);
      await turn;
      expect(await allGone([pid])).toBe(true);
    } finally {
      await c.close();
    }
  });

  test("is killed when the Bash call times out", async () => {
    const box = sandbox("scripted/call");
    const pidFile = join(box.root, "bash-timeout-child.pid");
    const c = await connectProcess(box.env);
    try {
      const { sessionId } = await newSession(c.ctx, box.workspace);
      const turn = prompt(
        c.ctx,
        sessionId,
        // Starting with `sleep`, the command is killed at its timeout rather than moved to the background.
        `Bash ${JSON.stringify({ command: `sleep 0; ${detachedSleeper(pidFile)}`, timeout: 1500 })}`,
      );
      const pid = await sleeperPid(pidFile);
      await turn;
      expect(await allGone([pid])).toBe(true);
    } finally {
      await c.close();
    }
  });

  test("is killed when the turn running it is cancelled", async () => {
    const box = sandbox("scripted/command");
    const pidFile = join(box.root, "bash-cancel-child.pid");
    const c = await connectProcess(box.env);
    try {
      const { sessionId } = await newSession(c.ctx, box.workspace);
      const turn = prompt(c.ctx, sessionId, detachedSleeper(pidFile));
      const pid = await sleeperPid(pidFile);
      await c.ctx.notify("session/cancel", { sessionId });
      expect(await turn).toEqual({ stopReason: "cancelled" });
      expect(await allGone([pid])).toBe(true);
    } finally {
      await c.close();
    }
  });
});
