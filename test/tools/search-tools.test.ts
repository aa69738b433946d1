/** Glob and Grep: results, modes, limits with a visible note, and `.gitignore` respected. */
import { describe, expect, test } from "bun:test";
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { globTool, GLOB_MAX_RESULTS } from "../../src/core/tools/glob.ts";
import { grepTool } from "../../src/core/tools/grep.ts";
import { ignoredBy, parseIgnore } from "../../src/core/tools/search/gitignore.ts";
import { runTool, shown } from "../support/tool-run.ts";
import { sandbox } from "../support/workspace.ts";

function project() {
  const ws = sandbox().workspace;
  const files: Record<string, string> = {
    ".gitignore": "node_modules/\n*.log\n/build\n!keep.log\n",
    "src/app.ts": "export const answer = 42;\nconsole.log('Hello');\n",
    "src/util.js": "function hello() {\n  return 'hello';\n}\n",
    "src/nested/.gitignore": "generated.ts\n",
    "src/nested/generated.ts": "export const hello = 'generated';\n",
    "src/nested/kept.ts": "export const hello = 'kept';\n",
    "debug.log": "hello from a log\n",
    "keep.log": "hello kept log\n",
    "build/out.js": "hello build\n",
    "docs/build/page.md": "hello docs build\n",
    "node_modules/dep/index.js": "hello dependency\n",
    "image.bin": "hello\0binary",
  };
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(ws, rel, ".."), { recursive: true });
    writeFileSync(join(ws, rel), text);
  }
  return ws;
}

const lines = (text: string) => text.split("\n");

describe(".gitignore rules", () => {
  test("follow git's meaning: names at any depth, anchored paths, directories only, negation", () => {
    const rules = parseIgnore("*.log\n!keep.log\n/build\ncache/\ndocs/**/draft.md\n# comment\n", "");
    expect(ignoredBy(rules, "a/b/debug.log", false)).toBe(true);
    expect(ignoredBy(rules, "keep.log", false)).toBe(false);
    expect(ignoredBy(rules, "build", true)).toBe(true);
    expect(ignoredBy(rules, "src/build", true)).toBeUndefined();
    expect(ignoredBy(rules, "x/cache", true)).toBe(true);
    expect(ignoredBy(rules, "x/cache", false)).toBeUndefined();
    expect(ignoredBy(rules, "docs/a/b/draft.md", false)).toBe(true);
    expect(ignoredBy(rules, "docs/draft.md", false)).toBe(true);
  });

  test("a nested file's rules apply below its directory only", () => {
    const rules = parseIgnore("generated.ts\n", "src/nested");
    expect(ignoredBy(rules, "src/nested/generated.ts", false)).toBe(true);
    expect(ignoredBy(rules, "src/generated.ts", false)).toBeUndefined();
  });
});

describe("Glob", () => {
  test("finds files by pattern, skipping ignored ones", async () => {
    const ws = project();
    const outcome = await runTool(globTool, { pattern: "**/*.ts" }, { cwd: ws });
    expect(lines(outcome.result.text).sort()).toEqual([`${ws}/src/app.ts`, `${ws}/src/nested/kept.ts`]);
    const logs = await runTool(globTool, { pattern: "*.log" }, { cwd: ws });
    expect(logs.result.text).toBe(`${ws}/keep.log`);
  });

  test("lists the newest first and says when it stops at the limit", async () => {
    const ws = sandbox().workspace;
    mkdirSync(join(ws, "many"));
    for (let i = 0; i < GLOB_MAX_RESULTS + 5; i++) {
      const path = join(ws, "many", `f${i}.txt`);
      writeFileSync(path, "");
      utimesSync(path, 1_000_000 + i, 1_000_000 + i);
    }
    const outcome = await runTool(globTool, { pattern: "many/*.txt" }, { cwd: ws });
    const out = lines(outcome.result.text);
    expect(out[0]).toBe(`${ws}/many/f${GLOB_MAX_RESULTS + 4}.txt`);
    expect(out.at(-1)).toBe(
      `(Showing ${GLOB_MAX_RESULTS} of ${GLOB_MAX_RESULTS + 5} files; use a more specific pattern or path.)`,
    );
    expect(shown(outcome)).toContain(`(Showing ${GLOB_MAX_RESULTS} of`);
  });

  test("a search in a subdirectory still respects the .gitignore above it", async () => {
    const ws = project();
    mkdirSync(join(ws, "src", "logs"));
    writeFileSync(join(ws, "src", "logs", "x.log"), "");
    const outcome = await runTool(globTool, { pattern: "**/*", path: join(ws, "src") }, { cwd: ws });
    expect(outcome.result.text).not.toContain("x.log");
    expect(outcome.result.text).not.toContain("generated.ts");
  });
});

describe("Grep", () => {
  test("lists matching files by default, skipping ignored and binary files", async () => {
    const ws = project();
    const outcome = await runTool(grepTool, { pattern: "hello", "-i": true }, { cwd: ws });
    const [header, ...files] = lines(outcome.result.text);
    expect(header).toBe("Found 5 files");
    expect(files.sort()).toEqual([
      `${ws}/docs/build/page.md`,
      `${ws}/keep.log`,
      `${ws}/src/app.ts`,
      `${ws}/src/nested/kept.ts`,
      `${ws}/src/util.js`,
    ]);
  });

  test("shows matching lines with numbers and context, ripgrep style", async () => {
    const ws = project();
    const outcome = await runTool(
      grepTool,
      { pattern: "return", output_mode: "content", "-B": 1, path: join(ws, "src") },
      { cwd: ws },
    );
    expect(outcome.result.text).toBe(`${ws}/src/util.js-1-function hello() {\n${ws}/src/util.js:2:  return 'hello';`);
  });

  test("counts matching lines per file, filtered by glob or type", async () => {
    const ws = project();
    const counted = await runTool(
      grepTool,
      { pattern: "hello", output_mode: "count", glob: "*.js", "-i": true },
      { cwd: ws },
    );
    expect(lines(counted.result.text)).toEqual(["2 matching lines in 1 files", `${ws}/src/util.js:2`]);
    const typed = await runTool(grepTool, { pattern: "hello", type: "ts", "-i": true }, { cwd: ws });
    expect(lines(typed.result.text).slice(1).sort()).toEqual([`${ws}/src/app.ts`, `${ws}/src/nested/kept.ts`]);
  });

  test("head_limit and offset page through results, with a note saying there is more", async () => {
    const ws = sandbox().workspace;
    writeFileSync(join(ws, "many.txt"), Array.from({ length: 10 }, (_, i) => `match ${i}`).join("\n"));
    const outcome = await runTool(
      grepTool,
      { pattern: "match", output_mode: "content", head_limit: 3, offset: 2, "-n": false },
      { cwd: ws },
    );
    expect(lines(outcome.result.text)).toEqual([
      `${ws}/many.txt:match 2`,
      `${ws}/many.txt:match 3`,
      `${ws}/many.txt:match 4`,
      "(Showing lines 3-5 of 10; use offset or head_limit for more, or narrow the search.)",
    ]);
  });

  test("multiline patterns span lines", async () => {
    const ws = project();
    const outcome = await runTool(
      grepTool,
      { pattern: "hello\\(\\) \\{.*?return", multiline: true, output_mode: "content" },
      { cwd: ws },
    );
    expect(lines(outcome.result.text)).toEqual([
      `${ws}/src/util.js:1:function hello() {`,
      `${ws}/src/util.js:2:  return 'hello';`,
    ]);
  });

  test("an invalid pattern or an unknown type is explained", async () => {
    const ws = project();
    expect((await runTool(grepTool, { pattern: "(" }, { cwd: ws })).result.text).toContain(
      "Invalid regular expression",
    );
    expect((await runTool(grepTool, { pattern: "x", type: "cobol" }, { cwd: ws })).result.text).toContain(
      'Unknown file type "cobol"',
    );
  });
});
