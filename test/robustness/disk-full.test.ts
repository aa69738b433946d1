/**
 * A full disk: the turn that cannot be journaled is reported, and when the client closes its end
 * the agent still closes its sessions and the journal, and exits 0 without a stack, even though
 * releasing the session's lease fails too. The journal stays consistent.
 *
 * The disk is a small tmpfs, so this runs where mounting one is allowed (as root); elsewhere the
 * same path is covered by nothing else, so the test says why it was skipped.
 */
import { Database } from "bun:sqlite";
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../support/cli-process.ts";
import { initializedRawAgent } from "../support/raw-client.ts";
import { sandbox } from "../support/workspace.ts";

/** A 4 MiB tmpfs at a new directory (unmounted and removed after the file), or undefined where mounting is not allowed. */
function smallDisk(): string | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const dir = mkdtempSync(join(tmpdir(), "verbatim-small-disk-"));
  const mounted = Bun.spawnSync(["mount", "-t", "tmpfs", "-o", "size=4m,mode=0700", "tmpfs", dir], { stderr: "pipe" });
  if (mounted.exitCode !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
  afterAll(() => {
    Bun.spawnSync(["umount", "-l", dir]);
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

/** Fills the disk at `dir` until a write fails; returns the filler's path. */
function fill(dir: string): string {
  const filler = join(dir, "filler");
  const block = new Uint8Array(64 * 1024);
  let written = 0;
  for (;;) {
    try {
      writeFileSync(filler, block, { flag: "a" });
      written += block.length;
    } catch {
      // Whatever fits in the last partial block.
      try {
        writeFileSync(filler, new Uint8Array(512), { flag: "a" });
        continue;
      } catch {
        return filler;
      }
    }
    if (written > 64 * 1024 * 1024) throw new Error("the small disk did not fill");
  }
}

const disk = smallDisk();

describe("a full disk", () => {
  test.skipIf(disk === undefined)(
    "the failed turn is reported, and shutdown still closes and exits 0 without a stack",
    async () => {
      const box = sandbox("scripted/plain");
      const env = { ...box.env, VERBATIM_HOME: disk as string };
      const agent = await initializedRawAgent(env);
      let sessionId = "";
      let filler = "";
      try {
        const created = await agent.request("session/new", { cwd: box.workspace, mcpServers: [] });
        sessionId = (created.result as { sessionId: string }).sessionId;
        const first = await agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "Hi" }] });
        expect(first.result).toEqual({ stopReason: "end_turn" });
        filler = fill(disk as string);
        const second = await agent.request("session/prompt", {
          sessionId,
          prompt: [{ type: "text", text: "Hi again" }],
        });
        expect(second.error?.message).toMatch(/could not be written|full/i);
        // The client is done: the agent closes the session (its lease release fails on the full disk) and exits.
        const listed = agent.request("session/list", {});
        agent.endInput();
        expect((await listed).result).toBeDefined();
        expect(await agent.exited).toBe(0);
        expect(agent.stderr()).not.toMatch(/SQLiteError|\n\s+at /);
      } finally {
        await agent.close();
        if (filler) rmSync(filler, { force: true });
      }
      // The journal is consistent, and the session reopens (the dead owner's lease is taken over).
      const db = new Database(join(disk as string, "journal.db"), { readonly: true });
      expect(db.query("PRAGMA quick_check").all()).toEqual([{ quick_check: "ok" }]);
      db.close();
      const shown = await runCli(["show", sessionId], env);
      expect(shown.code).toBe(0);
      expect(shown.stdout).toContain("Hi");
    },
  );
});
