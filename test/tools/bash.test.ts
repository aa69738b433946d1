/**
 * Bash as a local process group: output and exit status, caps, timeouts, and a cancel or timeout
 * that kills the command with everything it started, background grandchildren included.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { BASH_MAX_OUTPUT, bashTool } from "../../src/core/tools/bash.ts";
import { runTool, shown } from "../support/tool-run.ts";
import { sandbox } from "../support/workspace.ts";

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function waitFor(predicate: () => boolean, what: string) {
  for (let i = 0; i < 2000 && !predicate(); i++) await Bun.sleep(5);
  if (!predicate()) throw new Error(`timed out waiting for ${what}`);
}

const pidIn = (path: string) => Number(readFileSync(path, "utf8").trim());

describe("Bash", () => {
  test("returns stdout and stderr interleaved, with the exit code, and runs in the working directory", async () => {
    const ws = sandbox().workspace;
    const outcome = await runTool(bashTool, { command: "echo one; echo two >&2; pwd; exit 4" }, { cwd: ws });
    expect(outcome.status).toBe("failed");
    expect(outcome.result).toEqual({ text: `one\ntwo\n${ws}\n\nExit code 4`, isError: true });
    expect(outcome.rawOutput).toMatchObject({ exitCode: 4, signal: null });
  });

  test("a cancel kills the command and the background grandchild it started", async () => {
    const ws = sandbox().workspace;
    const pidFile = join(ws, "grandchild.pid");
    const abort = new AbortController();
    const run = runTool(
      bashTool,
      { command: `sleep 300 & echo $! > ${pidFile}; echo started; wait` },
      { cwd: ws, signal: abort.signal },
    );
    await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "", "the grandchild's pid");
    const grandchild = pidIn(pidFile);
    expect(alive(grandchild)).toBe(true);
    abort.abort();
    const outcome = await run;
    expect(outcome.status).toBe("failed");
    expect(outcome.result.text).toContain("Stopped: the user cancelled the command and it was killed.");
    await waitFor(() => !alive(grandchild), "the grandchild to die");
  });

  test("a timeout kills the command group and says so", async () => {
    const ws = sandbox().workspace;
    const pidFile = join(ws, "child.pid");
    const outcome = await runTool(
      bashTool,
      { command: `sleep 300 & echo $! > ${pidFile}; wait`, timeout: 300 },
      { cwd: ws },
    );
    expect(outcome.status).toBe("failed");
    expect(outcome.result.text).toContain("Stopped: the command timed out after 300 ms and was killed.");
    await waitFor(() => !alive(pidIn(pidFile)), "the background child to die");
  });

  test("a command that exits while a background child holds its output returns without waiting for the child", async () => {
    const ws = sandbox().workspace;
    const pidFile = join(ws, "background.pid");
    const outcome = await runTool(bashTool, { command: `sleep 60 & echo $! > ${pidFile}; echo done` }, { cwd: ws });
    try {
      expect(outcome.status).toBe("completed");
      expect(outcome.result.text).toBe("done\n\nExit code 0");
    } finally {
      process.kill(pidIn(pidFile), "SIGKILL");
    }
  });

  test("long output keeps its beginning and end, with a visible note", async () => {
    const ws = sandbox().workspace;
    const outcome = await runTool(
      bashTool,
      { command: "echo FIRST; head -c 100000 /dev/zero | tr '\\0' x; echo; echo LAST" },
      { cwd: ws },
    );
    expect(outcome.result.text.length).toBeLessThan(BASH_MAX_OUTPUT + 300);
    expect(outcome.result.text).toStartWith("FIRST\n");
    expect(outcome.result.text).toContain("characters of output omitted");
    expect(outcome.result.text).toContain("LAST\n\nExit code 0");
    expect(outcome.result.text).toContain("the middle was left out");
    expect(shown(outcome)).toContain("characters of output omitted");
  });

  test("output shows in the card while the command runs", async () => {
    const ws = sandbox().workspace;
    const progress: Parameters<typeof runTool>[2]["progress"] = [];
    await runTool(bashTool, { command: "echo early; sleep 1; echo late" }, { cwd: ws, progress });
    const texts = progress!.map((content) => JSON.stringify(content));
    expect(texts.some((t) => t.includes("early") && !t.includes("late"))).toBe(true);
  });
});
