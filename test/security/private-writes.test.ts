/**
 * The user config file holds keys, so verbatim writes it where nobody else can read, receive or
 * swap it: `setup` and `trust` refuse a config folder others can write (saving nothing), the key
 * never goes through a file someone planted at a name verbatim would use, and `doctor` warns
 * about a folder others can write.
 */
import { describe, expect, test } from "bun:test";
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { agentCommand } from "../../src/client/spawn-agent.ts";
import { createPrivateFile, PrivateWriteError } from "../../src/core/confinement/private-write.ts";
import { runCli } from "../support/cli-process.ts";
import { fixtureServer } from "../support/fixture-server.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";

const KEY = "sk-canary-private-write-0001";

const configDir = (box: Sandbox) => join(box.configHome, "verbatim");
const configFile = (box: Sandbox) => join(configDir(box), "config.json");

/** A sandbox whose environment chooses no model: only the config file can. */
function unconfigured(): Sandbox {
  const box = sandbox();
  box.env.VERBATIM_MODEL = "";
  return box;
}

/**
 * `verbatim setup` with its answers on stdin: an OpenAI-compatible server at `origin`, the key
 * typed, the first model. `beforeAnswers` runs once the process exists and before it reads a
 * single answer, so nothing is written yet (it knows the process's pid, as anyone on the machine can).
 */
async function setupWithKey(box: Sandbox, origin: string, beforeAnswers: (pid: number) => void = () => {}) {
  const child = Bun.spawn([...agentCommand(), "setup"], {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, ...box.env },
  });
  beforeAnswers(child.pid);
  child.stdin.write(`3\n${origin}/v1\n2\n${KEY}\n\n`);
  await child.stdin.end();
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { code, stdout, stderr };
}

const modelsAnswer = { status: 200, json: { object: "list", data: [{ id: "qwen3", object: "model" }] } };

/** Every file under `dir` whose text holds `secret`, links followed. */
function filesHolding(dir: string, secret: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((name) => join(dir, name))
    .filter((path) => {
      try {
        return readFileSync(path, "utf8").includes(secret);
      } catch {
        return false;
      }
    });
}

/** `verbatim doctor --json` in the box's workspace: its output and each check it printed. */
async function doctorChecks(box: Sandbox) {
  const r = await runCli(["doctor", "--json"], box.env, { cwd: box.workspace });
  const checks = r.stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { r, checks };
}

describe("the user config file is written where only the user can reach it", () => {
  test("setup refuses a config folder every account can write: it says why and saves nothing", async () => {
    const server = fixtureServer();
    server.enqueue(modelsAnswer);
    const box = unconfigured();
    mkdirSync(configDir(box));
    chmodSync(configDir(box), 0o777);

    const r = await setupWithKey(box, server.origin);

    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${configDir(box)} is mode 777: every account can write there`);
    expect(r.stderr).toContain(`chmod go-w ${configDir(box)}`);
    expect(r.stderr).toContain("Nothing was saved.");
    expect(r.stdout).not.toContain("Saved ");
    expect(readdirSync(configDir(box))).toEqual([]);
    // The folder is left as the user has it: verbatim does not change a folder it did not create.
    expect(lstatSync(configDir(box)).mode & 0o777).toBe(0o777);
  });

  test("setup refuses a config folder its group can write", async () => {
    const server = fixtureServer();
    server.enqueue(modelsAnswer);
    const box = unconfigured();
    mkdirSync(configDir(box));
    chmodSync(configDir(box), 0o770);

    const r = await setupWithKey(box, server.origin);

    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${configDir(box)} is mode 770: its group can write there`);
    expect(filesHolding(box.root, KEY)).toEqual([]);
  });

  test("a link planted at the name of setup's temporary file does not receive the key", async () => {
    const server = fixtureServer();
    server.enqueue(modelsAnswer);
    const box = unconfigured();
    mkdirSync(configDir(box), { mode: 0o700 });
    const stolen = join(box.root, "stolen.txt");
    writeFileSync(stolen, "");

    const r = await setupWithKey(box, server.origin, (pid) =>
      // The name a temporary built from the process id would have.
      symlinkSync(stolen, `${configFile(box)}.${pid}.tmp`),
    );

    expect(r.code).toBe(0);
    expect(readFileSync(stolen, "utf8")).toBe("");
    // The config file is a regular file of the user's, 0600, holding the key.
    const saved = lstatSync(configFile(box));
    expect(saved.isFile()).toBe(true);
    expect(saved.mode & 0o777).toBe(0o600);
    expect(readFileSync(configFile(box), "utf8")).toContain(KEY);
    expect(filesHolding(box.root, KEY)).toEqual([configFile(box)]);
  });

  test("setup creates a missing config folder 0700 and the file 0600, leaving no temporary behind", async () => {
    const server = fixtureServer();
    server.enqueue(modelsAnswer);
    const box = unconfigured();

    const r = await setupWithKey(box, server.origin);

    expect(r.code).toBe(0);
    expect(lstatSync(configDir(box)).mode & 0o777).toBe(0o700);
    expect(lstatSync(configFile(box)).mode & 0o777).toBe(0o600);
    expect(readdirSync(configDir(box))).toEqual(["config.json"]);
  });

  test("trust refuses a config folder every account can write, changing nothing", async () => {
    const box = sandbox();
    mkdirSync(configDir(box));
    writeFileSync(configFile(box), JSON.stringify({ providers: { p: { type: "openai", apiKey: KEY } } }), {
      mode: 0o600,
    });
    const before = readFileSync(configFile(box), "utf8");
    chmodSync(configDir(box), 0o777);

    const r = await runCli(["trust", box.workspace], box.env);

    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${configDir(box)} is mode 777: every account can write there`);
    expect(readFileSync(configFile(box), "utf8")).toBe(before);
    expect(readdirSync(configDir(box))).toEqual(["config.json"]);
  });

  test("doctor warns about a config folder others can write, naming the chmod", async () => {
    const box = sandbox("scripted/plain");
    mkdirSync(configDir(box));
    chmodSync(configDir(box), 0o777);

    const { checks } = await doctorChecks(box);
    expect(checks).toContainEqual({
      check: "user config folder",
      status: "warn",
      message: expect.stringContaining(`${configDir(box)} is mode 777: every account can write there`),
    });
    expect(checks.find((c) => c.check === "user config folder")?.message).toContain(`chmod go-w ${configDir(box)}`);
  });

  test("doctor warns about a config file others can read that holds a key", async () => {
    const box = sandbox("scripted/plain");
    mkdirSync(configDir(box), { mode: 0o700 });
    writeFileSync(configFile(box), JSON.stringify({ providers: { p: { type: "openai", apiKey: KEY } } }));
    chmodSync(configFile(box), 0o644);

    const { r, checks } = await doctorChecks(box);

    expect(r.stdout).not.toContain(KEY);
    expect(checks).toContainEqual({
      check: "user config",
      status: "warn",
      message: expect.stringContaining(`readable by others: chmod 600 ${configFile(box)}`),
    });
    expect(existsSync(configFile(box))).toBe(true);
  });
});

test("doctor warns about a replay cache seal key others can read, naming the chmod", async () => {
  const box = sandbox("scripted/plain");
  mkdirSync(configDir(box), { mode: 0o700 });
  const key = join(configDir(box), "replay-seal.key");
  writeFileSync(key, `${"ab".repeat(32)}\n`, { mode: 0o644 });
  chmodSync(key, 0o644);
  const { checks } = await doctorChecks(box);
  expect(checks).toContainEqual({
    check: "replay cache seal",
    status: "warn",
    message: expect.stringContaining(
      `readable by others, so reopened sessions check every cached line: chmod 600 ${key}`,
    ),
  });
});

describe("a private file made only once (the replay cache's seal key)", () => {
  test("the first maker's file stands: a second make finds it and writes nothing, and no temporary is left", () => {
    const folder = join(sandbox().root, "made-once");
    const path = join(folder, "replay-seal.key");
    expect(createPrivateFile(path, "first\n")).toBe(true);
    expect(createPrivateFile(path, "second\n")).toBe(false);
    expect(readFileSync(path, "utf8")).toBe("first\n");
    expect(lstatSync(path).mode & 0o777).toBe(0o600);
    expect(lstatSync(folder).mode & 0o777).toBe(0o700);
    expect(readdirSync(folder)).toEqual(["replay-seal.key"]);
  });

  test("a folder every account can write is refused, and nothing is made there", () => {
    const folder = join(sandbox().root, "open");
    mkdirSync(folder);
    chmodSync(folder, 0o777);
    expect(() => createPrivateFile(join(folder, "replay-seal.key"), "key\n")).toThrow(PrivateWriteError);
    expect(readdirSync(folder)).toEqual([]);
  });
});
