/** Paths are absolute and confined to the session's directories: no `..`, symlink or absolute escape. */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { editTool } from "../../src/core/tools/edit.ts";
import { globTool } from "../../src/core/tools/glob.ts";
import { grepTool } from "../../src/core/tools/grep.ts";
import { confine, directoryOf, isInside, PathError } from "../../src/core/tools/paths.ts";
import { readTool } from "../../src/core/tools/read.ts";
import { writeTool } from "../../src/core/tools/write.ts";
import { runTool } from "../support/tool-run.ts";
import { sandbox } from "../support/workspace.ts";

function layout() {
  const box = sandbox();
  const outside = join(box.root, "outside");
  mkdirSync(outside);
  writeFileSync(join(outside, "secret.txt"), "the secret\n");
  symlinkSync(outside, join(box.workspace, "linked-dir"));
  symlinkSync(join(outside, "secret.txt"), join(box.workspace, "linked-secret.txt"));
  const extra = join(box.root, "extra");
  mkdirSync(extra);
  writeFileSync(join(extra, "notes.txt"), "extra notes\n");
  return { ws: box.workspace, outside, extra };
}

const refused = (path: string, roots: string[]) => {
  try {
    confine(path, roots);
  } catch (error) {
    return error instanceof PathError ? error.message : `not a PathError: ${String(error)}`;
  }
  return undefined;
};

describe("confine", () => {
  test("a path that climbs out with .. is refused", () => {
    const { ws } = layout();
    expect(refused(`${ws}/../outside/secret.txt`, [ws])).toContain("outside the session's directories");
  });

  test("a symlink that leads outside is refused, for a file and through a directory", () => {
    const { ws } = layout();
    expect(refused(`${ws}/linked-secret.txt`, [ws])).toContain("outside");
    expect(refused(`${ws}/linked-dir/secret.txt`, [ws])).toContain("outside");
    expect(refused(`${ws}/linked-dir/new-file.txt`, [ws])).toContain("outside");
  });

  test("an absolute path outside the workspace is refused, and a relative path is asked to be absolute", () => {
    const { ws } = layout();
    expect(refused("/etc/passwd", [ws])).toContain("outside");
    expect(refused("README.md", [ws])).toContain("must be absolute");
  });

  test("paths inside the workspace or an additional directory are allowed, existing or not", () => {
    const { ws, extra } = layout();
    expect(confine(`${ws}/README.md`, [ws, extra])).toBe(`${ws}/README.md`);
    expect(confine(`${ws}/new/dir/file.txt`, [ws])).toBe(`${ws}/new/dir/file.txt`);
    expect(confine(`${extra}/notes.txt`, [ws, extra])).toBe(`${extra}/notes.txt`);
    expect(confine(`${ws}/sub/../README.md`, [ws])).toBe(`${ws}/README.md`);
  });
});

describe("file tools stay inside", () => {
  test("Read refuses an escape and says why", async () => {
    const { ws } = layout();
    for (const file_path of [`${ws}/../outside/secret.txt`, `${ws}/linked-secret.txt`, "/etc/hostname"]) {
      const outcome = await runTool(readTool, { file_path }, { cwd: ws });
      expect(outcome.status).toBe("failed");
      expect(outcome.result.text).toContain("outside the session's directories");
      expect(outcome.result.text).not.toContain("the secret");
    }
  });

  test("Write and Edit cannot create or change a file outside", async () => {
    const { ws, outside } = layout();
    const write = await runTool(writeTool, { file_path: `${ws}/linked-dir/planted.txt`, content: "x" }, { cwd: ws });
    expect(write.status).toBe("failed");
    expect(existsSync(join(outside, "planted.txt"))).toBe(false);
    const edit = await runTool(
      editTool,
      { file_path: `${ws}/linked-secret.txt`, old_string: "the", new_string: "a" },
      { cwd: ws },
    );
    expect(edit.status).toBe("failed");
    expect(edit.result.text).toContain("outside");
  });

  test("Glob and Grep refuse a search path outside, and never follow a link out", async () => {
    const { ws } = layout();
    expect((await runTool(globTool, { pattern: "*", path: `${ws}/../outside` }, { cwd: ws })).status).toBe("failed");
    expect((await runTool(grepTool, { pattern: "secret", path: "/etc" }, { cwd: ws })).status).toBe("failed");
    const grep = await runTool(grepTool, { pattern: "the secret", output_mode: "content" }, { cwd: ws });
    expect(grep.result.text).toContain("No matches");
  });
});

describe("the resolver (src/core/confinement)", () => {
  test("a dangling link counts as where its target would be created: outside is outside", () => {
    const { ws, outside } = layout();
    symlinkSync("../outside/planted.txt", join(ws, "dangling.txt"));
    expect(isInside(join(ws, "dangling.txt"), [ws])).toBe(false);
    expect(refused(join(ws, "dangling.txt"), [ws])).toContain(`it leads to ${join(outside, "planted.txt")}`);
    expect(directoryOf(join(ws, "dangling.txt"))).toBe(outside);
  });

  test("a dangling link whose target would be inside is allowed, and Write creates the target", async () => {
    const { ws } = layout();
    symlinkSync("made-later.txt", join(ws, "later.txt"));
    const outcome = await runTool(writeTool, { file_path: join(ws, "later.txt"), content: "now\n" }, { cwd: ws });
    expect(outcome.status).toBe("completed");
    expect(readFileSync(join(ws, "made-later.txt"), "utf8")).toBe("now\n");
  });

  test("a link loop is refused by name", () => {
    const { ws } = layout();
    symlinkSync("loop-b", join(ws, "loop-a"));
    symlinkSync("loop-a", join(ws, "loop-b"));
    expect(refused(join(ws, "loop-a"), [ws])).toContain("more than 40 symbolic links");
  });

  test("a grant for a /proc fd link is an absolute directory, never '.'", () => {
    const { ws } = layout();
    symlinkSync("/proc/self/fd/0", join(ws, "fd0"));
    expect(isAbsolute(directoryOf(join(ws, "fd0")))).toBe(true);
  });

  test("a relative root confines nothing", () => {
    const { ws } = layout();
    expect(isInside(join(process.cwd(), "package.json"), ["."])).toBe(false);
    expect(refused(join(ws, "README.md"), ["."])).toContain("outside");
  });
});
