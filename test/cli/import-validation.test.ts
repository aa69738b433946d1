/**
 * What `verbatim import` checks of a file from elsewhere before it writes anything, and what it
 * takes from it: the session's recorded directory is only its origin (the session works in the
 * current directory, or `--cwd DIR`), drawn escaped by `show`; a
 * `forkOf` that names a session this journal has, a nesting limit reported as a damaged line
 * with its number, and the file read as a stream (a damaged line is reported as soon as it is
 * read, the rest of the file not awaited).
 */
import { describe, expect, test } from "bun:test";
import { closeSync, constants, existsSync, openSync, readFileSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { lastJsonLine, runCli } from "../support/cli-process.ts";
import { dumpDatabase } from "../support/db-dump.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";

type Line = Record<string, unknown> & {
  kind?: string;
  session?: Record<string, unknown>;
  body?: Record<string, unknown>;
};

/** A recorded session's export, as parsed lines. */
async function exportLines(): Promise<{ lines: Line[]; box: Sandbox }> {
  const box = sandbox("scripted/plain");
  const run = await runCli(["run", "--json", "--cwd", box.workspace, "Hello"], box.env);
  expect(run.code).toBe(0);
  const file = join(box.root, "session.jsonl");
  expect((await runCli(["export", lastJsonLine(run.stdout).sessionId as string, "--file", file], box.env)).code).toBe(
    0,
  );
  const lines = readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Line);
  return { lines, box };
}

const write = (box: Sandbox, lines: (Line | string)[]): string => {
  const file = join(box.root, "crafted.jsonl");
  writeFileSync(file, `${lines.map((l) => (typeof l === "string" ? l : JSON.stringify(l))).join("\n")}\n`);
  return file;
};

/** The journal's logical content, or undefined before there is one. */
const journalOf = (box: Sandbox) =>
  existsSync(join(box.home, "journal.db")) ? dumpDatabase(join(box.home, "journal.db")) : undefined;

/** The export with its recorded directory (in the header and the session's start) set to `cwd`. */
function withCwd(lines: Line[], cwd: string): Line[] {
  for (const line of lines) {
    if (line.session) line.session.cwd = cwd;
    if (line.kind === "session_started" && line.body) line.body.cwd = cwd;
  }
  return lines;
}

/** Opens a FIFO for writing once a reader has it open (without blocking the test's thread meanwhile). */
async function openedForWriting(fifo: string): Promise<number> {
  for (;;) {
    try {
      return openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENXIO") throw error;
      await Bun.sleep(20);
    }
  }
}

describe("the recorded directory is the session's origin, never its directory here", () => {
  for (const [name, cwd] of [
    ["a relative directory", "work/app"],
    ["an empty directory", ""],
    ["a directory with a tab in it", "/tmp/a\tb"],
    ["the root", "/"],
  ] as const) {
    test(`${name}: the session works in the current directory, and show names the recorded one`, async () => {
      const { lines } = await exportLines();
      const other = sandbox("scripted/plain");
      const file = write(other, withCwd(lines, cwd));
      const imported = await runCli(["import", file], other.env, { cwd: other.workspace });
      expect(imported.code).toBe(0);
      expect(imported.stderr).toContain(`the session works in the current directory "${other.workspace}"`);
      expect(imported.stderr).not.toContain("\t");
      const sessionId = imported.stdout.trim();
      const listed = await runCli(["sessions", "--json", "--cwd", other.workspace], other.env);
      expect(listed.stdout).toContain(sessionId);
      const shown = await runCli(["show", sessionId], other.env);
      expect(shown.stdout).toStartWith(`imported: it ran in ${JSON.stringify(cwd)}\n`);
      expect(shown.stdout).not.toContain("\t");
    });
  }
});

describe("a fork's source", () => {
  test("a forkOf naming no session in this journal is dropped, saying so", async () => {
    const { lines } = await exportLines();
    const other = sandbox("scripted/plain");
    (lines[0]!.session as Record<string, unknown>).forkOf = { sessionId: "ses_nowhere", seq: 3 };
    const imported = await runCli(["import", write(other, lines)], other.env, { cwd: other.workspace });
    expect(imported.code).toBe(0);
    expect(imported.stderr).toContain('a fork of "ses_nowhere", which is not in this journal');
    const shown = await runCli(["show", imported.stdout.trim()], other.env);
    expect(shown.stdout).not.toContain("fork of");
    const listed = await runCli(["sessions", "--json"], other.env);
    expect(listed.stdout).not.toContain("ses_nowhere");
  });
});

describe("damaged lines", () => {
  test("an array nested 8,000 deep is a damaged line, named by its number, with nothing written", async () => {
    const { lines } = await exportLines();
    const other = sandbox("scripted/plain");
    const title = lines.findIndex((l) => l.kind === "title_set");
    const deep = JSON.stringify(lines[title]).replace(
      '"body":{',
      `"body":{"deep":${"[".repeat(8000)}${"]".repeat(8000)},`,
    );
    const file = write(other, [...lines.slice(0, title), deep, ...lines.slice(title + 1)]);
    const before = journalOf(other);
    const refused = await runCli(["import", file], other.env, { cwd: other.workspace });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`line ${title + 1} nests arrays or objects more than 1000 deep`);
    expect(refused.stderr).toContain("nothing was imported");
    expect(refused.stderr).not.toContain("RangeError");
    expect(journalOf(other)).toEqual(before);
  });

  test("the file is read as a stream: a damaged line is reported before the rest of the file is written", async () => {
    const { lines } = await exportLines();
    const other = sandbox("scripted/plain");
    const fifo = join(other.root, "export.fifo");
    expect(Bun.spawnSync(["mkfifo", fifo]).exitCode).toBe(0);
    const importing = runCli(["import", fifo], other.env, { cwd: other.workspace });
    const writer = await openedForWriting(fifo);
    try {
      writeSync(writer, `${JSON.stringify(lines[0])}\n{not json\n`);
      // The writer stays open: an import that read the whole file first would wait here for ever.
      const refused = await importing;
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("line 2 is not valid JSON");
    } finally {
      closeSync(writer);
    }
  });
});
