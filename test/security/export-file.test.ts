/**
 * `verbatim export ID --file F` writes a new private file of the user's own at F: a link planted
 * at F is refused (never followed into the file it points to), and so is a file there that
 * belongs to another account; a file of the user's own is replaced whole, private.
 */
import { describe, expect, test } from "bun:test";
import { chownSync, lstatSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { lastJsonLine, runCli } from "../support/cli-process.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";

const THEIRS = "another account's notes\n";
/** An account that is not this one (nobody), for a file only root can give away. */
const NOBODY = 65534;

async function recorded(): Promise<{ box: Sandbox; sessionId: string }> {
  const box = sandbox("scripted/plain");
  const run = await runCli(["run", "--json", "--cwd", box.workspace, "Hello"], box.env);
  expect(run.code).toBe(0);
  return { box, sessionId: lastJsonLine(run.stdout).sessionId as string };
}

/** The directory's entries: nothing left behind (no temporary) by a refused or finished export. */
const entries = (dir: string) => readdirSync(dir).sort();

describe("verbatim export --file", () => {
  test("a link at F is refused: the file it points to is unchanged, and the link stays a link", async () => {
    const { box, sessionId } = await recorded();
    const victim = join(box.root, "victim.txt");
    writeFileSync(victim, THEIRS, { mode: 0o644 });
    const link = join(box.root, "session.jsonl");
    symlinkSync(victim, link);
    const before = entries(box.root);
    const refused = await runCli(["export", sessionId, "--file", link], box.env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${link} is a link`);
    expect(readFileSync(victim, "utf8")).toBe(THEIRS);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(entries(box.root)).toEqual(before);
  });

  test.skipIf(process.getuid?.() !== 0)(
    "a file at F that belongs to another account is refused and stays theirs",
    async () => {
      const { box, sessionId } = await recorded();
      const theirs = join(box.root, "session.jsonl");
      writeFileSync(theirs, THEIRS, { mode: 0o666 });
      chownSync(theirs, NOBODY, NOBODY);
      const refused = await runCli(["export", sessionId, "--file", theirs], box.env);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("belongs to another account");
      expect(readFileSync(theirs, "utf8")).toBe(THEIRS);
      expect(statSync(theirs).uid).toBe(NOBODY);
    },
  );

  test("a file of the user's own at F is replaced whole by a private one, nothing else left beside it", async () => {
    const { box, sessionId } = await recorded();
    const mine = join(box.root, "session.jsonl");
    writeFileSync(mine, "an older export, longer than nothing\n".repeat(1000), { mode: 0o644 });
    const before = entries(box.root);
    const exported = await runCli(["export", sessionId, "--file", mine], box.env);
    expect(exported.code).toBe(0);
    expect((await runCli(["export", sessionId], box.env)).stdout).toBe(readFileSync(mine, "utf8"));
    expect(statSync(mine).mode & 0o777).toBe(0o600);
    expect(entries(box.root)).toEqual(before);
  });
});
