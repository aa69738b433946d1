/**
 * Continuing a session headless: `--session ID` or `--continue`, with `--model` and `--mode`
 * recorded as config changes (the fact an editor's session/set_config_option records).
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { exportedFacts } from "../support/exported-facts.ts";
import { fixtureServer } from "../support/fixture-server.ts";
import { lastJsonLine, runCli } from "../support/cli-process.ts";
import { chatKit, modelRef } from "../support/provider-kits.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";

async function firstSession(box: Sandbox, env: Record<string, string> = box.env, cwd = box.workspace): Promise<string> {
  const first = await runCli(["run", "--json", "--cwd", cwd, "First"], env);
  expect(first.code).toBe(0);
  return lastJsonLine(first.stdout).sessionId as string;
}

const configChanges = async (box: Sandbox, sessionId: string) =>
  (await exportedFacts(box.env, sessionId)).flatMap((f) =>
    f.kind === "config_changed" ? [`${f.configId}=${f.value}`] : [],
  );

describe("verbatim run --session with --model and --mode", () => {
  test("--model switches the continued session's model, recorded and shown where it changed", async () => {
    const box = sandbox("scripted/plain");
    const id = await firstSession(box);
    const second = await runCli(
      ["run", "--session", id, "--model", "scripted/echo", "--cwd", box.workspace, "Second"],
      box.env,
    );
    expect(second.code).toBe(0);
    expect(second.stdout).toContain("You said: Second");
    expect(await configChanges(box, id)).toEqual(["model=scripted/echo"]);
    const shown = (await runCli(["show", id], box.env)).stdout;
    expect(shown.indexOf("(model: scripted/echo)")).toBeGreaterThan(shown.indexOf("> First"));
    expect(shown.indexOf("(model: scripted/echo)")).toBeLessThan(shown.indexOf("> Second"));
  });

  test("VERBATIM_MODEL alone does not switch a continued session", async () => {
    const box = sandbox("scripted/echo");
    const id = await firstSession(box);
    const second = await runCli(["run", "--session", id, "--cwd", box.workspace, "Second"], {
      ...box.env,
      VERBATIM_MODEL: "scripted/plain",
    });
    expect(second.code).toBe(0);
    expect(second.stdout).toContain("You said: Second");
    expect(await configChanges(box, id)).toEqual([]);
  });

  test("--model naming the model the session already has records nothing", async () => {
    const box = sandbox("scripted/plain");
    const id = await firstSession(box);
    expect(
      (await runCli(["run", "--session", id, "--model", "scripted/plain", "--cwd", box.workspace, "Again"], box.env))
        .code,
    ).toBe(0);
    expect(await configChanges(box, id)).toEqual([]);
  });

  test("--mode changes the continued session's mode, recorded and shown", async () => {
    const box = sandbox("scripted/plain");
    const id = await firstSession(box);
    expect(
      (await runCli(["run", "--session", id, "--mode", "plan", "--cwd", box.workspace, "Plan it"], box.env)).code,
    ).toBe(0);
    expect(await configChanges(box, id)).toEqual(["mode=plan"]);
    expect((await runCli(["show", id], box.env)).stdout).toContain("(mode: plan)");
  });

  test("--mode on a new session starts it in that mode", async () => {
    const box = sandbox("scripted/plain");
    const r = await runCli(["run", "--json", "--mode", "acceptEdits", "--cwd", box.workspace, "Hi"], box.env);
    expect(r.code).toBe(0);
    expect(await configChanges(box, lastJsonLine(r.stdout).sessionId as string)).toEqual(["mode=acceptEdits"]);
  });

  test("a session whose model is not configured here says how to switch, records nothing, and --model continues it", async () => {
    const box = sandbox("scripted/plain");
    const server = fixtureServer();
    server.enqueue({ sse: chatKit.text("Hello from the server.") });
    const id = await firstSession(box, { ...box.env, ...chatKit.env(server), VERBATIM_MODEL: modelRef(chatKit) });
    const stuck = await runCli(["run", "--session", id, "--cwd", box.workspace, "Second"], box.env);
    expect(stuck.code).toBe(1);
    expect(stuck.stderr).toContain(`uses the model ${modelRef(chatKit)}, which is not configured here`);
    expect(stuck.stderr).toContain(`verbatim run --session ${id} --model <provider>/<model>`);
    expect((await runCli(["show", id], box.env)).stdout).not.toContain("> Second");
    const moved = await runCli(
      ["run", "--session", id, "--model", "scripted/plain", "--cwd", box.workspace, "Third"],
      box.env,
    );
    expect(moved.code).toBe(0);
    expect(moved.stdout).toContain("Every word you see here is recorded");
  });

  test("--model naming a model that cannot be used says so in words", async () => {
    const box = sandbox("scripted/plain");
    const id = await firstSession(box);
    const r = await runCli(
      ["run", "--session", id, "--model", "anthropic/claude-sonnet-4-6", "--cwd", box.workspace, "Hi"],
      box.env,
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("anthropic/claude-sonnet-4-6");
    expect(r.stderr).toContain("ANTHROPIC_API_KEY");
    expect(r.stderr).not.toMatch(/Internal error|Invalid params|Authentication required/);
  });
});

describe("verbatim run --continue", () => {
  test("continues the most recent session of the working directory", async () => {
    const box = sandbox("scripted/plain");
    const elsewhere = join(box.root, "elsewhere");
    mkdirSync(elsewhere);
    await firstSession(box);
    const latest = await firstSession(box);
    await firstSession(box, box.env, elsewhere);
    const r = await runCli(["run", "--json", "--continue", "--cwd", box.workspace, "Again"], box.env);
    expect(r.code).toBe(0);
    expect(lastJsonLine(r.stdout).sessionId).toBe(latest);
    expect((await runCli(["show", latest], box.env)).stdout).toContain("> Again");
  });

  test("with no session in the working directory, it says so", async () => {
    const box = sandbox("scripted/plain");
    const r = await runCli(["run", "--continue", "--cwd", box.workspace, "Again"], box.env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`there is no session in ${box.workspace} to continue`);
  });

  test("--continue and --session together are a usage error", async () => {
    const box = sandbox("scripted/plain");
    const r = await runCli(["run", "--continue", "--session", "ses_x", "--cwd", box.workspace, "Again"], box.env);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("not both");
  });
});
