/**
 * A rewind's file restore is its own recorded step after the rewind: a card listing each file
 * with its diff, asked about as an edit is, its intent recorded before the first file changes and
 * its outcome after. A restore a dead process left unfinished shows interrupted on load, naming
 * the files that may be half restored, and a rewind with files to the same message finishes it.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { choose } from "../../src/client/view-client.ts";
import { comparable } from "../../src/cli/demo.ts";
import { openJournal } from "../../src/core/config/open-journal.ts";
import type { Fact } from "../../src/journal/facts/index.ts";
import { readAll } from "../../src/journal/store.ts";
import { diffValues } from "../../src/view/view-diff.ts";
import type { ViewModel } from "../../src/view/view-model.ts";
import { connectInProcess, load, newSession, prompt } from "../support/acp-session.ts";
import { runCli } from "../support/cli-process.ts";
import { dropRetracted, rewind } from "../support/rewind.ts";
import { answerBefore } from "../support/view-cut.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";

const call = (name: string, args: unknown) => `${name} ${JSON.stringify(args)}`;

/** Turn 1 reads the README; turns 2 and 3 create a.txt and b.txt. Returns the session and turn 1's answer. */
async function twoFilesWritten(box: Sandbox): Promise<{ sessionId: string; toMessageId: string }> {
  const live = await connectInProcess(box.env);
  try {
    const sessionId = (await newSession(live.ctx, box.workspace)).sessionId;
    await prompt(live.ctx, sessionId, call("Read", { file_path: join(box.workspace, "README.md") }));
    for (const name of ["a.txt", "b.txt"])
      await prompt(live.ctx, sessionId, call("Write", { file_path: join(box.workspace, name), content: `${name}\n` }));
    return { sessionId, toMessageId: answerBefore(live.client.view(sessionId), 1) };
  } finally {
    await live.close();
  }
}

/** The session's view as a fresh process loads it, from the facts alone. */
async function reloaded(box: Sandbox, sessionId: string): Promise<ViewModel> {
  const fresh = await connectInProcess({ ...box.env, VERBATIM_REPLAY_CACHE: "off" });
  try {
    await load(fresh.ctx, sessionId, box.workspace);
  } finally {
    await fresh.close();
  }
  return fresh.client.view(sessionId);
}

const restoreCard = (view: ViewModel) => Object.values(view.toolCalls).find((c) => c.title?.startsWith("Restore"));
const cardText = (view: ViewModel) =>
  (restoreCard(view)?.content ?? [])
    .map((c) => (c.type === "content" && c.content.type === "text" ? c.content.text : ""))
    .join("\n");

describe("a rewind's file restore", () => {
  test("is recorded after the rewind: its card, the question, its intent, then its outcome", async () => {
    const box = sandbox("scripted/call");
    const { sessionId, toMessageId } = await twoFilesWritten(box);
    const live = await connectInProcess(box.env);
    try {
      await load(live.ctx, sessionId, box.workspace);
      await rewind(live.ctx, { sessionId, toMessageId, files: true });
    } finally {
      await live.close();
    }
    const store = openJournal(box.env);
    try {
      const kinds = (await readAll(store, sessionId)).map((r) => r.fact.kind);
      const from = kinds.lastIndexOf("session_rewound");
      expect(kinds.slice(from)).toEqual([
        "session_rewound",
        "files_restore_planned",
        "permission_requested",
        "permission_answered",
        "files_restore_started",
        "files_restore_ended",
      ]);
    } finally {
      await store.close();
    }
  });

  test("refused, changes nothing and says so on its card, live and after a reload", async () => {
    const box = sandbox("scripted/call");
    const { sessionId, toMessageId } = await twoFilesWritten(box);
    const live = await connectInProcess(box.env, { policy: choose("reject_once") });
    let view: ViewModel;
    try {
      await load(live.ctx, sessionId, box.workspace);
      const answer = await rewind(live.ctx, { sessionId, toMessageId, files: true });
      view = live.client.view(sessionId);
      dropRetracted(view, answer._meta.verbatim.retracted);
    } finally {
      await live.close();
    }
    expect(existsSync(join(box.workspace, "a.txt"))).toBe(true);
    expect(restoreCard(view)?.status).toBe("failed");
    expect(cardText(view)).toContain("Not restored: the user refused it. No file was changed.");
    expect(diffValues(comparable(view), comparable(await reloaded(box, sessionId)))).toEqual([]);
  });

  test("left unfinished by a dead process, shows interrupted on load and is finished by rewinding with files again", async () => {
    const box = sandbox("scripted/call");
    const { sessionId, toMessageId } = await twoFilesWritten(box);
    const a = join(box.workspace, "a.txt");
    const b = join(box.workspace, "b.txt");
    // What a process killed as the first file went leaves: the rewind, the card, its intent, a.txt gone.
    const store = openJournal(box.env);
    try {
      const records = await readAll(store, sessionId);
      const toSeq = records.find((r) => r.fact.kind === "message_chunk" && r.fact.messageId === toMessageId)!.seq;
      const facts: Fact[] = [
        { kind: "session_rewound", toSeq, toMessageId, earlier: [], retracted: { messageIds: [], toolCallIds: [] } },
        {
          kind: "files_restore_planned",
          restoreId: "call_restore",
          toMessageId,
          files: [
            { path: a, from: "a.txt\n", to: null },
            { path: b, from: "b.txt\n", to: null },
          ],
          leftAlone: [],
          commandsRun: 0,
        },
        { kind: "files_restore_started", restoreId: "call_restore" },
      ];
      await store.acquire(sessionId);
      let seq = records.length + 1;
      for (const fact of facts) await store.append(sessionId, seq++, fact, new Date().toISOString());
      await store.release(sessionId);
    } finally {
      await store.close();
    }
    rmSync(a);
    const loaded = await reloaded(box, sessionId);
    expect(restoreCard(loaded)?.status).toBe("failed");
    expect(cardText(loaded)).toContain(`which may be half restored: ${a}, ${b}`);
    const finished = await runCli(["rewind", sessionId, "--to", toMessageId, "--files", "--approve", "edits"], box.env);
    expect(finished.code).toBe(0);
    expect(existsSync(b)).toBe(false);
    expect(finished.stdout).toContain(`removed ${a}`);
    expect(finished.stdout).toContain(`removed ${b}`);
    const after = await reloaded(box, sessionId);
    expect(restoreCard(after)?.status).toBe("completed");
    expect(readFileSync(join(box.workspace, "README.md"), "utf8")).toContain("Line three.");
  });
});
