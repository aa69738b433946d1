/**
 * `verbatim watch ID`, driven as a user would: another process runs the session, the watcher
 * reads only the journal, and draws each update as the writer records it, the same transcript
 * `show` draws of the same facts once the turn is over.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { choose } from "../../src/client/view-client.ts";
import { connectProcess, newSession, prompt, until } from "../support/acp-session.ts";
import { runCli } from "../support/cli-process.ts";
import { freshDatabase } from "../support/postgres-server.ts";
import { initializedRawAgent } from "../support/raw-client.ts";
import { sandbox } from "../support/workspace.ts";

/** The slow answer's sentence that ends each of its repeats (scripted/slow). */
const LAST_WORDS = "the reasons for each choice.";
const ANSWER_REPEATS = 6;

describe("verbatim watch", () => {
  for (const store of ["sqlite", "postgres"] as const)
    test(`draws a turn another process runs as it is written, the same transcript show draws of it (${store})`, async () => {
      const box = sandbox("scripted/slow");
      if (store === "postgres") box.env.VERBATIM_JOURNAL = await freshDatabase();
      const env = { ...box.env, NO_COLOR: "1" };
      const writer = await initializedRawAgent(box.env);
      try {
        const created = await writer.request("session/new", { cwd: box.workspace, mcpServers: [] });
        const id = (created.result as { sessionId: string }).sessionId;
        // Watching from before the prompt: all of the turn is drawn from the journal as it grows.
        const watching = runCli(["watch", id], env, {
          interruptWhen: (out) => out.split(LAST_WORDS).length > ANSWER_REPEATS,
        });
        await Bun.sleep(300);
        const answer = await writer.request("session/prompt", {
          sessionId: id,
          prompt: [{ type: "text", text: "go slowly" }],
        });
        expect(answer.error).toBeUndefined();
        const watched = await watching;
        expect(watched.code).toBe(130);
        expect(watched.stderr).toContain(`watching ${id}`);
        const shown = await runCli(["show", id], env);
        expect(shown.code).toBe(0);
        const transcript = (text: string) =>
          text.slice(text.indexOf("> go slowly"), text.lastIndexOf(LAST_WORDS) + LAST_WORDS.length);
        expect(transcript(watched.stdout)).toContain("Let me think about this carefully");
        expect(transcript(watched.stdout)).toBe(transcript(shown.stdout));
      } finally {
        writer.endInput();
        await writer.exited;
      }
    }, 30_000);

  test("draws the calls left open interrupted when the writer is killed mid-turn, as show then draws them", async () => {
    const box = sandbox("scripted/command");
    const env = { ...box.env, NO_COLOR: "1" };
    const pidFile = join(box.root, "command.pid");
    const writer = await connectProcess(box.env, { policy: choose("allow_once") });
    try {
      const { sessionId } = await newSession(writer.ctx, box.workspace);
      const watching = runCli(["watch", sessionId], env, { interruptWhen: (out) => out.includes("Interrupted:") });
      // Watching from before the prompt: the writer dies while the watcher follows it.
      await Bun.sleep(1000);
      void prompt(writer.ctx, sessionId, `echo $$ > ${pidFile}; echo started; sleep 30`).catch(() => undefined);
      await until(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "", "the command to start");
      writer.agent!.kill(9);
      await writer.agent!.exited;
      try {
        process.kill(-Number(readFileSync(pidFile, "utf8").trim()), "SIGKILL");
      } catch {
        // already gone
      }
      const watched = await watching;
      expect(watched.code).toBe(130);
      const mark = "Interrupted: verbatim stopped while this call was running; its outcome is unknown.";
      expect(watched.stdout).toContain(mark);
      const shown = await runCli(["show", sessionId], env);
      expect(shown.stdout).toContain(mark);
    } finally {
      await writer.close();
    }
  }, 30_000);

  test("of a session no process runs draws what is recorded and waits for more", async () => {
    const box = sandbox("scripted/plain");
    const env = { ...box.env, NO_COLOR: "1" };
    const ran = await runCli(["run", "--json", "hello"], box.env);
    const id = (JSON.parse(ran.stdout.trim().split("\n")[0]!) as { sessionId: string }).sessionId;
    const watched = await runCli(["watch", id], env, { interruptWhen: (out) => out.includes("hello") });
    expect(watched.code).toBe(130);
    expect(watched.stdout).toContain("hello");
  }, 30_000);

  test("refuses an id that is no session's, as show does", async () => {
    const box = sandbox("scripted/plain");
    const watched = await runCli(["watch", "ses_missing"], box.env);
    expect(watched.code).toBe(1);
    expect(watched.stderr).toContain("ses_missing");
  }, 30_000);
});
