/** Two agent processes, one store: one writer per session, readers always welcome. */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { SqliteJournal } from "../../src/journal/sqlite-store.ts";
import { connectProcess, load, newSession, prompt } from "../support/acp-session.ts";
import { sandbox } from "../support/workspace.ts";
import { texts } from "../parity/harness.ts";

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: { code: number; message: string; data?: unknown }) => e,
  );

describe("two processes on the same session", () => {
  test("the second writer is refused while the first lives, and takes over after kill -9", async () => {
    const box = sandbox("scripted/plain");
    const first = await connectProcess(box.env);
    const second = await connectProcess(box.env);
    try {
      const { sessionId } = await newSession(first.ctx, box.workspace);
      await prompt(first.ctx, sessionId, "From the first");

      // Both can read.
      await load(second.ctx, sessionId, box.workspace);
      expect(Object.keys(second.client.view(sessionId).messages).length).toBe(2);

      // The second cannot write while the first is alive; the first keeps working.
      const error = await refusal(prompt(second.ctx, sessionId, "From the second"));
      expect(error?.code).toBe(-32600);
      expect(error?.data).toMatchObject({ reason: "busy", sessionId, pid: first.agent!.pid });
      expect((await prompt(first.ctx, sessionId, "First again")).stopReason).toBe("end_turn");

      // kill -9 must not lock the session forever.
      first.agent!.kill(9);
      await first.agent!.exited;
      expect((await prompt(second.ctx, sessionId, "Taken over")).stopReason).toBe("end_turn");
      // What the first process wrote after the second loaded is shown before the second goes on.
      expect(texts(second.client.view(sessionId), "user")).toEqual(["From the first", "First again", "Taken over"]);

      const journal = new SqliteJournal(join(box.home, "journal.db"));
      const records = [...journal.read(sessionId)];
      journal.close();
      expect(records.map((r) => r.seq)).toEqual(records.map((_, i) => i + 1));
      const prompts = records.flatMap((r) => (r.fact.kind === "prompt_received" ? [r.fact.blocks[0]] : []));
      expect(prompts).toEqual([
        { type: "text", text: "From the first" },
        { type: "text", text: "First again" },
        { type: "text", text: "Taken over" },
      ]);
    } finally {
      await first.close();
      await second.close();
    }
  });
});

describe("two processes on different sessions", () => {
  test("both write to the same store at once without refusing each other", async () => {
    const box = sandbox("scripted/slow");
    const a = await connectProcess(box.env);
    const b = await connectProcess(box.env);
    try {
      const [sa, sb] = await Promise.all([newSession(a.ctx, box.workspace), newSession(b.ctx, box.workspace)]);
      const results = await Promise.all([prompt(a.ctx, sa.sessionId, "A"), prompt(b.ctx, sb.sessionId, "B")]);
      expect(results.map((r) => r.stopReason)).toEqual(["end_turn", "end_turn"]);
      const journal = new SqliteJournal(join(box.home, "journal.db"));
      const counts = [sa.sessionId, sb.sessionId].map((id) => [...journal.read(id)].length);
      journal.close();
      expect(counts[0]).toBeGreaterThan(100);
      expect(counts[1]).toBe(counts[0]!);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
