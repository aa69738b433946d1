/**
 * A rewind with `files: true` also restores what verbatim's own Write and Edit changed after the
 * point, from the recorded contents: only a file that still holds what verbatim left there; any
 * other is listed and left alone; what commands did is never undone, and the answer says so.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { comparable } from "../../src/cli/demo.ts";
import { diffValues } from "../../src/view/view-diff.ts";
import type { ViewModel } from "../../src/view/view-model.ts";
import { connectInProcess, load, newSession, prompt } from "../support/acp-session.ts";
import { dropRetracted, rewind, type RewindAnswer } from "../support/rewind.ts";
import { answerBefore } from "../support/view-cut.ts";
import { README_TEXT, sandbox, type Sandbox } from "../support/workspace.ts";

const call = (name: string, args: unknown) => `${name} ${JSON.stringify(args)}`;

/** Reads the README, then (after the point) creates a.txt, edits the README, writes b.txt and runs a command. */
async function editedSession(
  box: Sandbox,
  files: boolean,
): Promise<{ answer: RewindAnswer; view: ViewModel; sessionId: string }> {
  const live = await connectInProcess(box.env);
  try {
    const sessionId = (await newSession(live.ctx, box.workspace)).sessionId;
    const readme = join(box.workspace, "README.md");
    await prompt(live.ctx, sessionId, call("Read", { file_path: readme }));
    await prompt(live.ctx, sessionId, call("Write", { file_path: join(box.workspace, "a.txt"), content: "one\n" }));
    await prompt(
      live.ctx,
      sessionId,
      call("Edit", { file_path: readme, old_string: "Line three.", new_string: "Line 3." }),
    );
    await prompt(live.ctx, sessionId, call("Write", { file_path: join(box.workspace, "b.txt"), content: "two\n" }));
    await prompt(live.ctx, sessionId, call("Bash", { command: "echo hi > c.txt", description: "Write c.txt" }));
    writeFileSync(join(box.workspace, "b.txt"), "changed by the user\n");
    const view = live.client.view(sessionId);
    const answer = await rewind(live.ctx, { sessionId, toMessageId: answerBefore(view, 1), files });
    dropRetracted(view, answer._meta.verbatim.retracted);
    return { answer, view, sessionId };
  } finally {
    await live.close();
  }
}

describe("a rewind that restores files", () => {
  test("restores what verbatim's edits changed, removes what they created, leaves alone what changed since", async () => {
    const box = sandbox("scripted/call");
    const { answer } = await editedSession(box, true);
    expect(readFileSync(join(box.workspace, "README.md"), "utf8")).toBe(README_TEXT);
    expect(existsSync(join(box.workspace, "a.txt"))).toBe(false);
    expect(readFileSync(join(box.workspace, "b.txt"), "utf8")).toBe("changed by the user\n");
    expect(answer._meta.verbatim).toMatchObject({
      files: {
        restored: [join(box.workspace, "README.md")],
        removed: [join(box.workspace, "a.txt")],
        leftAlone: [{ path: join(box.workspace, "b.txt"), reason: "changed since verbatim last edited it" }],
        commandsRun: 1,
      },
    });
  });

  test("never undoes a command, and says so", async () => {
    const box = sandbox("scripted/call");
    const { view } = await editedSession(box, true);
    expect(readFileSync(join(box.workspace, "c.txt"), "utf8")).toBe("hi\n");
    const card = Object.values(view.toolCalls).find((c) => c.title?.startsWith("Restore"));
    const text = (card?.content ?? [])
      .map((c) => (c.type === "content" && c.content.type === "text" ? c.content.text : ""))
      .join("\n");
    expect(text).toContain("1 command ran after that point: what it changed is not undone.");
    expect(text).toContain("left");
  });

  test("a reload shows the restore's card where the client was shown it", async () => {
    const box = sandbox("scripted/call");
    const { view, sessionId } = await editedSession(box, true);
    const fresh = await connectInProcess(box.env);
    try {
      await load(fresh.ctx, sessionId, box.workspace);
    } finally {
      await fresh.close();
    }
    expect(diffValues(comparable(view), comparable(fresh.client.view(sessionId)))).toEqual([]);
  });

  test("without files, no file is touched", async () => {
    const box = sandbox("scripted/call");
    const { answer } = await editedSession(box, false);
    expect(readFileSync(join(box.workspace, "README.md"), "utf8")).not.toBe(README_TEXT);
    expect(existsSync(join(box.workspace, "a.txt"))).toBe(true);
    expect(answer._meta.verbatim).not.toHaveProperty("files");
  });
});
