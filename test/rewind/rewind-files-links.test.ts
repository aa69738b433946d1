/**
 * A rewind's file restore never acts through a link: a file verbatim created that is now a link is
 * left alone (its target too), and a folder swapped for a link to elsewhere at the moment of the
 * removal cannot make it remove a file there. The swap is made through the removal's seam, at the
 * exact moment, not raced for.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { removalSeam } from "../../src/core/confinement/removal-seam.ts";
import type { FilesRestored } from "../../src/journal/facts/index.ts";
import { connectInProcess, newSession, prompt } from "../support/acp-session.ts";
import { rewind } from "../support/rewind.ts";
import { answerBefore } from "../support/view-cut.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";

const call = (name: string, args: unknown) => `${name} ${JSON.stringify(args)}`;

afterEach(() => {
  removalSeam.at = undefined;
});

/** Turn 1 reads the README; turn 2 writes each of `files` (created); `change` runs; then a rewind to turn 1 with files. */
async function createdThenRewound(box: Sandbox, files: string[], change: () => void): Promise<FilesRestored> {
  const live = await connectInProcess(box.env);
  try {
    const sessionId = (await newSession(live.ctx, box.workspace)).sessionId;
    await prompt(live.ctx, sessionId, call("Read", { file_path: join(box.workspace, "README.md") }));
    for (const file of files) await prompt(live.ctx, sessionId, call("Write", { file_path: file, content: "same\n" }));
    change();
    const view = live.client.view(sessionId);
    const answer = await rewind(live.ctx, { sessionId, toMessageId: answerBefore(view, 1), files: true });
    const restore = answer._meta.verbatim.files;
    if (!restore) throw new Error("the rewind answer names no restore");
    return restore;
  } finally {
    await live.close();
  }
}

describe("a restore, never through a link", () => {
  test("leaves alone a created file that is now a link, and the file it leads to", async () => {
    const box = sandbox("scripted/call");
    const created = join(box.workspace, "a.txt");
    const other = join(box.workspace, "keep.txt");
    const files = await createdThenRewound(box, [created], () => {
      writeFileSync(other, "same\n");
      rmSync(created);
      symlinkSync(other, created);
    });
    expect(readFileSync(other, "utf8")).toBe("same\n");
    expect(existsSync(created)).toBe(true);
    expect(files.removed).toEqual([]);
    expect(files.leftAlone.map((f) => f.path)).toEqual([created]);
  });

  test("never writes an edited file's old text through a link that took its place", async () => {
    const box = sandbox("scripted/call");
    const readme = join(box.workspace, "README.md");
    const other = join(box.workspace, "keep.txt");
    const files = await createdThenRewound(box, [readme], () => {
      writeFileSync(other, "same\n");
      rmSync(readme);
      symlinkSync(other, readme);
    });
    expect(readFileSync(other, "utf8")).toBe("same\n");
    expect(files.restored).toEqual([]);
    expect(files.leftAlone).toEqual([{ path: readme, reason: "it is a link now" }]);
  });

  test("removes nothing outside when the folder is swapped for a link as the file goes", async () => {
    const box = sandbox("scripted/call");
    const folder = join(box.workspace, "made");
    const outside = join(box.root, "outside");
    mkdirSync(folder);
    mkdirSync(outside);
    writeFileSync(join(outside, "a.txt"), "same\n");
    const created = join(folder, "a.txt");
    removalSeam.at = (stage) => {
      if (stage !== "unlink" || existsSync(join(box.workspace, "made-aside"))) return;
      renameSync(folder, join(box.workspace, "made-aside"));
      symlinkSync(outside, folder);
    };
    const files = await createdThenRewound(box, [created], () => undefined);
    expect(readFileSync(join(outside, "a.txt"), "utf8")).toBe("same\n");
    expect(existsSync(join(box.workspace, "made-aside", "a.txt"))).toBe(false);
    expect(files.removed).toEqual([created]);
  });

  test("refuses a folder swapped for a link to elsewhere before it is opened", async () => {
    const box = sandbox("scripted/call");
    const folder = join(box.workspace, "made");
    const outside = join(box.root, "outside");
    mkdirSync(folder);
    mkdirSync(outside);
    writeFileSync(join(outside, "a.txt"), "same\n");
    const created = join(folder, "a.txt");
    removalSeam.at = (stage) => {
      if (stage !== "parent" || existsSync(join(box.workspace, "made-aside"))) return;
      renameSync(folder, join(box.workspace, "made-aside"));
      symlinkSync(outside, folder);
    };
    const files = await createdThenRewound(box, [created], () => undefined);
    expect(readFileSync(join(outside, "a.txt"), "utf8")).toBe("same\n");
    expect(readFileSync(join(box.workspace, "made-aside", "a.txt"), "utf8")).toBe("same\n");
    expect(files.removed).toEqual([]);
    expect(files.leftAlone.map((f) => f.path)).toEqual([created]);
  });
});
