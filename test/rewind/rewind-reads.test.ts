/**
 * A rewind takes back what the model learned after the point, not what it learned before: a file
 * a kept turn read still counts as read, so the model can change it without reading it again, and
 * the content check still refuses it once it changed since.
 */
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ViewModel } from "../../src/view/view-model.ts";
import { connectInProcess, newSession, prompt } from "../support/acp-session.ts";
import { dropRetracted, rewind } from "../support/rewind.ts";
import { answerBefore } from "../support/view-cut.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";

const call = (name: string, args: unknown) => `${name} ${JSON.stringify(args)}`;

/** The status and text of the last Edit card a view shows. */
function lastEdit(view: ViewModel): { status: string | undefined; text: string } {
  const card = Object.values(view.toolCalls)
    .filter((c) => c.title?.startsWith("Edit"))
    .at(-1);
  const text = (card?.content ?? [])
    .map((c) => (c.type === "content" && c.content.type === "text" ? c.content.text : ""))
    .join("");
  return { status: card?.status, text };
}

/** Turn 1 reads the README; turn 2 edits it; the rewind goes back to turn 1's answer (restoring it with `files`); turn 2's prompt is sent again. */
async function editAgainAfterRewind(box: Sandbox, between?: () => void): Promise<ViewModel> {
  const live = await connectInProcess(box.env);
  try {
    const sessionId = (await newSession(live.ctx, box.workspace)).sessionId;
    const readme = join(box.workspace, "README.md");
    const edit = call("Edit", { file_path: readme, old_string: "Line three.", new_string: "Line 3." });
    await prompt(live.ctx, sessionId, call("Read", { file_path: readme }));
    await prompt(live.ctx, sessionId, edit);
    const view = live.client.view(sessionId);
    expect(lastEdit(view).status).toBe("completed");
    const answer = await rewind(live.ctx, { sessionId, toMessageId: answerBefore(view, 1), files: true });
    dropRetracted(view, answer._meta.verbatim.retracted);
    between?.();
    await prompt(live.ctx, sessionId, edit);
    return live.client.view(sessionId);
  } finally {
    await live.close();
  }
}

describe("the reads of the turns a rewind keeps", () => {
  test("stand: the same edit sent again after the rewind succeeds as it did the first time", async () => {
    const view = await editAgainAfterRewind(sandbox("scripted/call"));
    expect(lastEdit(view)).toMatchObject({ status: "completed" });
  });

  test("still meet the content check: a file changed since the kept read is refused", async () => {
    const box = sandbox("scripted/call");
    const readme = join(box.workspace, "README.md");
    const view = await editAgainAfterRewind(box, () => writeFileSync(readme, "Line three.\nChanged by the user.\n"));
    const edit = lastEdit(view);
    expect(edit.status).toBe("failed");
    expect(edit.text).toContain("has changed since you last read it");
  });
});
