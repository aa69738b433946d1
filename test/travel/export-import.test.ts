/** Sessions moved as a file: `verbatim export ID --file F` on one journal, `verbatim import F` on another. */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCli } from "../support/cli-process.ts";
import { dumpDatabase } from "../support/db-dump.ts";
import { sandbox } from "../support/workspace.ts";

async function recorded(model: string, prompt = "Read it") {
  const box = sandbox(model);
  const run = await runCli(["run", "--json", "--cwd", box.workspace, prompt], box.env);
  expect(run.code).toBe(0);
  const { sessionId } = JSON.parse(run.stdout.trim().split("\n").pop()!) as { sessionId: string };
  const file = join(box.root, "session.jsonl");
  const exported = await runCli(["export", sessionId, "--file", file], box.env);
  expect(exported.code).toBe(0);
  return { box, sessionId, file };
}

const lines = (file: string) =>
  readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe("verbatim export and import", () => {
  test("export to a reader that stops early (`| head -1`) ends quietly with 141, as run does", async () => {
    // An attachment larger than a pipe holds, so that the export is still writing when the reader goes.
    const box = sandbox("scripted/plain");
    const attachment = join(box.root, "large.txt");
    writeFileSync(attachment, "x".repeat(1 << 20));
    const run = await runCli(["run", "--cwd", box.workspace, "--file", attachment, "Hi"], box.env);
    const sessionId = /session (ses_[0-9a-z]+)/.exec(run.stderr)?.[1] ?? "";
    expect(sessionId).toMatch(/^ses_/);
    const r = await runCli(["export", sessionId], box.env, { closeStdoutWhen: (out) => out.includes("\n") });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(141);
  });

  test("the export names its format and version first, then the records in order; the file is private", async () => {
    const { file, sessionId } = await recorded("scripted/tool");
    const [head, ...rest] = lines(file);
    expect(head).toMatchObject({ format: "verbatim-session-export", version: 1, session: { sessionId } });
    const records = rest.filter((l) => "seq" in l);
    expect(records[0]).toMatchObject({ seq: 1, kind: "session_started" });
    expect(records.map((r) => r.seq)).toEqual(records.map((_, i) => i + 1));
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  test("a session imported into another journal reopens with the same view", async () => {
    const { box, sessionId, file } = await recorded("scripted/tool");
    const other = sandbox("scripted/tool");
    const imported = await runCli(["import", file], other.env);
    expect(imported).toMatchObject({ code: 0, stdout: `${sessionId}\n` });
    const here = await runCli(["show", sessionId], box.env);
    const there = await runCli(["show", sessionId], other.env);
    expect(there.code).toBe(0);
    expect(there.stdout).toBe(here.stdout);
    expect(there.stdout).toContain("Line three.");
  });

  test("an id already in the journal is refused unless --new-id, which imports it as a new session", async () => {
    const { box, sessionId, file } = await recorded("scripted/plain");
    const refused = await runCli(["import", file], box.env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("--new-id");
    const again = await runCli(["import", file, "--new-id"], box.env);
    expect(again.code).toBe(0);
    const newId = again.stdout.trim();
    expect(newId).not.toBe(sessionId);
    expect((await runCli(["show", newId], box.env)).stdout).toBe((await runCli(["show", sessionId], box.env)).stdout);
  });

  test("a prompt where the recorded directory is gone is refused with how to take it over; import --cwd continues it there", async () => {
    const { box, sessionId, file } = await recorded("scripted/tool");
    renameSync(box.workspace, `${box.workspace}-gone`);
    const refused = await runCli(["run", "--session", sessionId, "--cwd", box.root, "Read it again"], box.env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`ran in ${box.workspace}`);
    expect(refused.stderr).toContain("import F --cwd DIR");

    const mine = join(box.root, "mine");
    mkdirSync(mine);
    writeFileSync(join(mine, "README.md"), "# Mine\n\nThe checkout on this machine.\n");
    const taken = await runCli(["import", file, "--cwd", mine, "--new-id"], box.env);
    expect(taken.code).toBe(0);
    const newId = taken.stdout.trim();
    const continued = await runCli(["run", "--session", newId, "--cwd", mine, "Read it again"], box.env);
    expect(continued.code).toBe(0);
    expect(continued.stdout).toContain(`[read] Read ${join(mine, "README.md")} — completed`);
    const moved = (await runCli(["export", newId], box.env)).stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { kind?: string; body?: Record<string, unknown> });
    expect(moved.find((r) => r.kind === "session_moved")?.body).toMatchObject({ fromCwd: box.workspace, cwd: mine });
  });

  for (const [name, damage] of [
    [
      "a damaged record",
      (text: string) =>
        text.replace(
          /"kind":"prompt_received","v":1,"body":\{/,
          '"kind":"prompt_received","v":1,"body":{"blocks":7,"x":{',
        ),
    ],
    ["a line that is not JSON", (text: string) => `${text}{not json\n`],
    ["a newer export format", (text: string) => text.replace('"version":1', '"version":2')],
    ["a newer record format", (text: string) => text.replace('"kind":"title_set","v":1', '"kind":"title_set","v":9')],
    [
      "a missing record",
      (text: string) =>
        text
          .split("\n")
          .filter((l) => !l.includes('"seq":2,'))
          .join("\n"),
    ],
    ["a file that is not an export", () => "hello\n"],
  ] as const) {
    test(`${name} is refused with nothing written`, async () => {
      const { file } = await recorded("scripted/plain");
      const text = readFileSync(file, "utf8");
      const broken = damage(text);
      expect(broken).not.toBe(text);
      writeFileSync(file, broken);
      const other = sandbox("scripted/plain");
      const before = existsSync(join(other.home, "journal.db"))
        ? dumpDatabase(join(other.home, "journal.db"))
        : undefined;
      const refused = await runCli(["import", file], other.env);
      expect(refused.code).toBe(1);
      expect(refused.stdout).toBe("");
      expect(refused.stderr).toContain("nothing was imported");
      if (name === "a newer export format") expect(refused.stderr).toContain("newer verbatim (export format 2");
      const after = existsSync(join(other.home, "journal.db"))
        ? dumpDatabase(join(other.home, "journal.db"))
        : undefined;
      expect(after).toEqual(before);
    });
  }
});
