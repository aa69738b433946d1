/**
 * The OS sandbox in tests. The suite runs agents with it off (preload.ts); these helpers turn it
 * back on for one box, and say whether this machine can run it. Under CI (`CI=true`) a sandbox
 * that cannot start fails the run instead of skipping its tests; elsewhere the tests say plainly
 * why they cannot run.
 */
import { test } from "bun:test";
import { startSandbox } from "../../src/core/sandbox/sandbox-runtime-host.ts";
import { sandbox, type Sandbox } from "./workspace.ts";

/** A box whose agents run commands in the OS sandbox (as a user's do by default). */
export function sandboxedBox(model: string): Sandbox {
  const box = sandbox(model);
  box.env.VERBATIM_SANDBOX = "";
  return box;
}

/** Why this machine cannot run the sandbox, or undefined when it can (started and reset in this process). */
export async function sandboxUnavailable(): Promise<string | undefined> {
  const start = await startSandbox();
  if (!start.ok) return `${start.reason}${start.install ? ` (install: ${start.install})` : ""}`;
  await start.manager.reset();
  return undefined;
}

/**
 * The reason the sandbox tests of a file cannot run here (they are skipped, saying so), or
 * undefined. Under CI a missing sandbox is a failing test, never a skip.
 */
export async function sandboxTestsSkipped(file: string): Promise<string | undefined> {
  const why = await sandboxUnavailable();
  if (why === undefined) return undefined;
  if (process.env.CI === "true") {
    test("the OS sandbox starts on this CI machine (.ci/run installs bubblewrap, socat and ripgrep)", () => {
      throw new Error(`the sandbox cannot start: ${why}`);
    });
    return why;
  }
  console.warn(`${file}: the sandbox tests cannot run on this machine: ${why}`);
  return why;
}
