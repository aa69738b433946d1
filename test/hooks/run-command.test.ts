/**
 * Hook processes (hooks.md §10, acceptance tests 5 to 8): each in its own process group, killed
 * whole (grandchildren included) on timeout or cancel, SIGKILL after SIGTERM is ignored, done at
 * the exit and not when the pipes close, and a hook that never reads its stdin is fine. These
 * tests assert on what happened to the processes, never on how long anything took.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { signalGroup } from "../../src/core/process-group.ts";
import { runCommand, type CommandSpec } from "../../src/core/hooks/run-command.ts";
import { alive, allGone, pidsFrom } from "../support/processes.ts";
import { sandbox } from "../support/workspace.ts";

const spec = (root: string, commandLine: string, extra: Partial<CommandSpec> = {}): CommandSpec => ({
  argv: ["/bin/sh", "-c", commandLine],
  cwd: root,
  env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
  stdin: "{}",
  timeoutMs: 60_000,
  graceMs: 500,
  ...extra,
});

describe("hook processes", () => {
  test("a hook that hangs is killed at its timeout, with its grandchildren", async () => {
    const { root } = sandbox();
    const files = ["leader", "child1", "child2"].map((f) => join(root, f));
    const running = runCommand(
      spec(root, `echo $$ > ${files[0]}; sleep 100 & echo $! > ${files[1]}; sleep 100 & echo $! > ${files[2]}; wait`, {
        timeoutMs: 1000,
      }),
    );
    const pids = await pidsFrom(files);
    // The grandchildren really ran (a test that starts too late would prove nothing).
    expect(pids.every(alive)).toBe(true);
    const result = await running;
    expect(result.stopped).toBe("timeout");
    expect(await allGone(pids, 2000)).toBe(true);
  });

  test("a hook that ignores SIGTERM gets SIGKILL after the grace period", async () => {
    const { root } = sandbox();
    const files = ["leader", "child"].map((f) => join(root, f));
    const running = runCommand(
      spec(root, `trap '' TERM; echo $$ > ${files[0]}; sleep 100 & echo $! > ${files[1]}; while :; do wait; done`, {
        timeoutMs: 1000,
      }),
    );
    const pids = await pidsFrom(files);
    expect(pids.every(alive)).toBe(true);
    const result = await running;
    expect(result.stopped).toBe("timeout");
    expect(result.signal).toBe("SIGKILL");
    expect(await allGone(pids, 2000)).toBe(true);
  });

  test("a cancel kills the whole group", async () => {
    const { root } = sandbox();
    const files = ["leader", "child"].map((f) => join(root, f));
    const abort = new AbortController();
    const running = runCommand(
      spec(root, `echo $$ > ${files[0]}; sleep 100 & echo $! > ${files[1]}; wait`, { signal: abort.signal }),
    );
    const pids = await pidsFrom(files);
    abort.abort();
    const result = await running;
    expect(result.stopped).toBe("cancel");
    expect(await allGone(pids, 2000)).toBe(true);
  });

  test("it is done when the hook exits, even while a background child still holds its output pipe", async () => {
    const { root } = sandbox();
    const childFile = join(root, "child");
    const result = await runCommand(
      spec(root, `sleep 30 & echo $! > ${childFile}; echo '{"decision":"approve"}'; exit 0`),
    );
    const [child] = await pidsFrom([childFile]);
    try {
      expect(result.exitCode).toBe(0);
      expect(result.stdout.trim()).toBe('{"decision":"approve"}');
      // Resolved while the child holding the pipe still runs: completion was the exit, not EOF.
      expect(alive(child!)).toBe(true);
    } finally {
      signalGroup(result.pid!, "SIGKILL");
    }
  });

  test("a hook that exits without reading a 1 MB payload completes, and nothing crashes", async () => {
    const { root } = sandbox();
    const result = await runCommand(spec(root, "exit 0", { stdin: JSON.stringify({ big: "x".repeat(1024 * 1024) }) }));
    expect(result.exitCode).toBe(0);
    expect(result.spawnError).toBeUndefined();
  });

  test("a program that does not exist is a spawn error, not a crash", async () => {
    const { root } = sandbox();
    const result = await runCommand({ ...spec(root, ""), argv: [join(root, "no-such-hook")] });
    expect(result.spawnError).toBeDefined();
    expect(result.exitCode).toBeNull();
  });

  test("stdin carries the payload and stdout and stderr are captured apart", async () => {
    const { root } = sandbox();
    const result = await runCommand(spec(root, "cat; echo oops >&2", { stdin: '{"a":1}' }));
    expect(result.stdout).toBe('{"a":1}');
    expect(result.stderr).toBe("oops\n");
  });
});
