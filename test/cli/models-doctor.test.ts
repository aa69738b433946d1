/** `verbatim models` and `verbatim doctor`: what is configured, what is wrong, and what to fix. */
import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fixtureServer } from "../support/fixture-server.ts";
import { runCli } from "../support/cli-process.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";

const userConfig = (box: Sandbox, config: unknown) => {
  mkdirSync(join(box.configHome, "verbatim"), { recursive: true });
  writeFileSync(
    join(box.configHome, "verbatim", "config.json"),
    typeof config === "string" ? config : JSON.stringify(config),
  );
};

const lines = (stdout: string) =>
  stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe("verbatim models", () => {
  test("lists the models that can be used, marking the one new sessions use", async () => {
    const box = sandbox("scripted/plain");
    const r = await runCli(["models"], box.env);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\* scripted\/plain {2}Scripted: plain/m);
    expect(r.stdout).toMatch(/^ {2}scripted\/echo /m);
  });

  test("a provider that is not set up is listed with why, and exits 1 when nothing can be used", async () => {
    const box = sandbox("");
    userConfig(box, {
      providers: { work: { type: "anthropic", apiKeyEnv: "WORK_KEY", models: { "claude-sonnet-4-6": {} } } },
    });
    const r = await runCli(["models", "--json"], box.env);
    expect(r.code).toBe(1);
    expect(lines(r.stdout)[0]).toEqual({
      model: "work/claude-sonnet-4-6",
      name: expect.stringContaining("Claude"),
      provider: "work",
      available: false,
      reason: "WORK_KEY (named by providers.work.apiKeyEnv) is not set.",
    });
  });

  test("with nothing configured, it says what to set", async () => {
    const box = sandbox("");
    const r = await runCli(["models"], box.env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "No model provider is configured. Run `verbatim setup` to choose one and save its key, or set VERBATIM_MODEL=<provider>/<model>",
    );
  });
});

const checks = async (box: Sandbox, env: Record<string, string> = box.env) => {
  const r = await runCli(["doctor", "--json"], env, { cwd: box.workspace });
  return { code: r.code, checks: lines(r.stdout) as { check: string; status: string; message: string }[] };
};

describe("verbatim doctor", () => {
  test("a healthy setup passes every check: Bun, the journal, the config, the model, trust", async () => {
    const box = sandbox("scripted/plain");
    expect((await runCli(["run", "--cwd", box.workspace, "Hi"], box.env)).code).toBe(0);
    const r = await runCli(["doctor"], box.env, { cwd: box.workspace });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`ok    bun: Bun ${Bun.version}`);
    expect(r.stdout).toMatch(
      new RegExp(
        `ok    journal: ${join(box.home, "journal\\.db")}: intact, 1 session, \\d+\\.\\d (KiB|MiB) \\(verbatim prune`,
      ),
    );
    expect(r.stdout).toContain("ok    model: new sessions use scripted/plain");
    expect(r.stdout).toContain(`ok    this workspace: ${box.workspace} is not trusted`);
    expect(r.stdout).toContain("all checks passed");
  });

  test("a VERBATIM_HOME that is a file fails the journal check", async () => {
    const box = sandbox("scripted/plain");
    const file = join(box.root, "not-a-folder");
    writeFileSync(file, "");
    const { code, checks: found } = await checks(box, { ...box.env, VERBATIM_HOME: file });
    expect(code).toBe(1);
    expect(found).toContainEqual({
      check: "journal",
      status: "fail",
      message: expect.stringContaining(`${file} is a file, not a folder`),
    });
  });

  test("a damaged journal fails the integrity check", async () => {
    const box = sandbox("scripted/plain");
    mkdirSync(box.home, { recursive: true, mode: 0o700 });
    writeFileSync(join(box.home, "journal.db"), "not a database ".repeat(300), { mode: 0o600 });
    const { code, checks: found } = await checks(box);
    expect(code).toBe(1);
    expect(found).toContainEqual({ check: "journal", status: "fail", message: expect.stringContaining("damaged") });
  });

  test("a journal others can read fails the permissions check, saying the chmod", async () => {
    const box = sandbox("scripted/plain");
    expect((await runCli(["run", "--cwd", box.workspace, "Hi"], box.env)).code).toBe(0);
    chmodSync(join(box.home, "journal.db"), 0o644);
    const { code, checks: found } = await checks(box);
    expect(code).toBe(1);
    expect(found).toContainEqual({
      check: "journal permissions",
      status: "fail",
      message: expect.stringContaining(`chmod 600 ${join(box.home, "journal.db")}`),
    });
  });

  test("an invalid config file fails, naming the file", async () => {
    const box = sandbox("scripted/plain");
    userConfig(box, "{ not json");
    const { code, checks: found } = await checks(box);
    expect(code).toBe(1);
    expect(found).toContainEqual({
      check: "user config",
      status: "fail",
      message: expect.stringContaining("is not valid JSON"),
    });
  });

  test("a provider that answers its model list passes", async () => {
    const box = sandbox("openai-chat/qwen3:8b");
    const server = fixtureServer();
    server.enqueue({ status: 200, json: { object: "list", data: [] } });
    const { code, checks: found } = await checks(box, { ...box.env, OPENAI_BASE_URL: `${server.origin}/v1` });
    expect(code).toBe(0);
    expect(found).toContainEqual({
      check: "provider openai-chat",
      status: "ok",
      message: `${server.origin}/v1 answers`,
    });
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /v1/models"]);
  });

  test("a provider whose base URL is missing /v1 fails, saying so", async () => {
    const box = sandbox("openai-chat/qwen3:8b");
    const server = fixtureServer();
    server.enqueue({ status: 404, html: "<html><head><title>404</title></head></html>" });
    const { code, checks: found } = await checks(box, { ...box.env, OPENAI_BASE_URL: server.origin });
    expect(code).toBe(1);
    expect(found).toContainEqual({
      check: "provider openai-chat",
      status: "fail",
      message: expect.stringContaining(`the base URL ${server.origin} may be missing /v1`),
    });
  });

  test("a provider that cannot be reached fails, naming the URL", async () => {
    const box = sandbox("openai-chat/qwen3:8b");
    const server = fixtureServer();
    const origin = server.origin;
    server.stop();
    const { code, checks: found } = await checks(box, { ...box.env, OPENAI_BASE_URL: `${origin}/v1` });
    expect(code).toBe(1);
    expect(found).toContainEqual({
      check: "provider openai-chat",
      status: "fail",
      message: expect.stringContaining(`could not reach ${origin}/v1`),
    });
  });

  test("a trusted folder that no longer exists is a warning, not a failure", async () => {
    const box = sandbox("scripted/plain");
    const gone = join(box.root, "gone");
    userConfig(box, { trustedFolders: [gone] });
    const { code, checks: found } = await checks(box);
    expect(code).toBe(0);
    expect(found).toContainEqual({
      check: "trusted folder",
      status: "warn",
      message: expect.stringContaining(`${gone} no longer exists`),
    });
  });
});
