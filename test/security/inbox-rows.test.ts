/**
 * A session's inbox (journal/session-inbox.ts) is a table any machine with the journal's writer
 * role can put rows in. The writer checks each prompt row as it checks a client's prompt (the
 * strict prompt-block schema and the prompt capabilities verbatim advertised: core/prompt-blocks.ts):
 * a row that fails is taken, logged, and never run. And the transcript renderer draws any block a
 * journal recorded (an older version ran such rows), never failing on one.
 */
import { SQL } from "bun";
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { openJournal } from "../../src/core/config/open-journal.ts";
import type { Fact } from "../../src/journal/facts/index.ts";
import { journalFile } from "../../src/journal/paths.ts";
import type { InboxRequest } from "../../src/journal/session-inbox.ts";
import { readAll, type JournalStore } from "../../src/journal/store.ts";
import { connectProcess, newSession } from "../support/acp-session.ts";
import { runCli } from "../support/cli-process.ts";
import { startFact } from "../support/journal.ts";
import { freshDatabase } from "../support/postgres-server.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";

/** Blocks a client's prompt is refused with: no text, a text that is not a string, audio (not advertised). */
const REFUSED_BLOCKS: unknown[][] = [
  [{ type: "text" }],
  [{ type: "text", text: { forged: true } }],
  [{ type: "audio", data: "AAAA", mimeType: "audio/wav" }],
  [{ type: "resource_link", uri: 42 }],
  [],
];

const row = (requestId: string, blocks: unknown[]) =>
  ({
    kind: "prompt",
    requestId,
    blocks,
    by: { pid: 1, host: "another-machine" },
    at: new Date().toISOString(),
  }) as unknown as InboxRequest;

/** Waits (polling the journal) until the session has recorded a fact of `kind`. */
async function untilRecorded(store: JournalStore, sessionId: string, kind: Fact["kind"]): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if ((await readAll(store, sessionId)).some((r) => r.fact.kind === kind)) return;
    await Bun.sleep(50);
  }
  throw new Error(`session ${sessionId} recorded no ${kind}`);
}

async function inboxRows(box: Sandbox): Promise<{ request_id: string; taken: boolean }[]> {
  const url = box.env.VERBATIM_JOURNAL;
  if (url) {
    const sql = new SQL(url, { max: 1 });
    try {
      return (await sql`SELECT request_id, taken FROM verbatim.session_inbox ORDER BY ord`) as {
        request_id: string;
        taken: boolean;
      }[];
    } finally {
      await sql.close();
    }
  }
  const db = new Database(journalFile(box.home), { readonly: true });
  try {
    return db
      .query<{ request_id: string; taken: number }, []>("SELECT request_id, taken FROM session_inbox ORDER BY rowid")
      .all()
      .map((r) => ({ request_id: r.request_id, taken: r.taken === 1 }));
  } finally {
    db.close();
  }
}

describe("an inbox row the writer takes", () => {
  for (const kind of ["sqlite", "postgres"] as const)
    test(`is run only if a client's prompt of its blocks would be; the others are taken and never run (${kind})`, async () => {
      const box = sandbox("scripted/plain");
      if (kind === "postgres") box.env.VERBATIM_JOURNAL = await freshDatabase();
      const writer = await connectProcess(box.env);
      const store = openJournal(box.env);
      try {
        const { sessionId } = await newSession(writer.ctx, box.workspace);
        // The writer reads its inbox while a controller is attached (an attachment row lives).
        await store.keepAttachment(sessionId, {
          attachmentId: "att_elsewhere",
          by: { pid: 1, host: "another-machine" },
        });
        for (const [i, blocks] of REFUSED_BLOCKS.entries())
          await store.sendToWriter(sessionId, row(`req_bad${i}`, blocks));
        await store.sendToWriter(sessionId, row("req_good", [{ type: "text", text: "a fair prompt" }]));
        await untilRecorded(store, sessionId, "turn_ended");

        const prompts = (await readAll(store, sessionId)).flatMap((r) =>
          r.fact.kind === "prompt_received" ? [r.fact] : [],
        );
        expect(prompts.map((p) => p.from?.requestId)).toEqual(["req_good"]);
        expect(prompts[0]?.blocks).toEqual([{ type: "text", text: "a fair prompt" }]);
        expect((await inboxRows(box)).every((r) => r.taken)).toBe(true);
        expect(writer.agent!.stderr()).toContain("req_bad1");
      } finally {
        await store.close();
        await writer.close();
      }
    }, 60_000);
});

describe("show", () => {
  test("draws a session whose journal recorded prompts of any block shape", async () => {
    const box = sandbox("scripted/plain");
    const store = openJournal(box.env);
    const sessionId = "ses_odd_blocks";
    try {
      const at = new Date().toISOString();
      await store.create(
        { sessionId, cwd: box.workspace, additionalDirectories: [], createdAt: at, updatedAt: at },
        startFact(box.workspace),
      );
      const odd = [...REFUSED_BLOCKS.flat(), { type: "video", frames: 3 }, { type: "resource" }, { type: "image" }];
      const prompt = {
        kind: "prompt_received",
        turnId: "turn_1",
        messageId: "msg_1",
        blocks: [{ type: "text", text: "before " }, ...odd, { type: "text", text: "after" }],
      } as unknown as Fact;
      await store.append(sessionId, 2, prompt, at);
    } finally {
      await store.close();
    }
    const shown = await runCli(["show", sessionId], box.env);
    expect(shown.stderr).toBe("");
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain("> before [text ?][text ?][audio audio/wav][?](?)[video][resource ?][image ?]after");
  });
});
