/**
 * Decoding compiles a kind's schema once it has seen enough records of that kind (zod's own
 * compiler). A compiled kind decodes every record exactly as zod's runtime parser does, keys in
 * the same order, and still rejects a damaged record naming its field.
 */
import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { COMPILE_AFTER } from "../../src/journal/codec.ts";
import { JournalError } from "../../src/journal/errors.ts";
import { factSchema, type Fact } from "../../src/journal/facts/index.ts";
import { SqliteJournal } from "../../src/journal/sqlite-store.ts";
import { createSession, startFact, tempJournal } from "../support/journal.ts";

/** Facts of several kinds, with optional fields present and absent and keys out of schema order. */
function variedFacts(i: number): Fact[] {
  return [
    {
      text: `word ${i} `,
      stream: i % 2 ? "thought" : "answer",
      messageId: `msg_${i}`,
      stepId: "step_1",
      kind: "message_chunk",
    },
    {
      kind: "usage_recorded",
      cost: { currency: "USD", amount: 0.25 },
      stepId: "step_1",
      inputTokens: i,
      outputTokens: 2 * i,
      used: 10,
      size: 1000,
      ...(i % 3 ? { cacheReadTokens: 5 } : {}),
    },
    {
      kind: "tool_call_announced",
      toolCallId: `call_${i}`,
      name: "Read",
      title: "Read a.txt",
      toolKind: "read",
      rawInput: { file_path: "a.txt", nested: { b: [1, { c: null }] } },
      locations: i % 2 ? [{ line: i, path: "a.txt" }] : [{ path: "a.txt", line: null }],
      content: [{ type: "content", content: { type: "text", text: "x" } }],
    },
    {
      kind: "tool_call_finished",
      toolCallId: `call_${i}`,
      status: "completed",
      content: [{ type: "content", content: { type: "text", text: "line\n".repeat(3) } }],
      ...(i % 2 ? { rawOutput: { lines: i } } : {}),
      result: { isError: false, text: "done" },
    },
    {
      kind: "step_ended",
      turnId: "turn_1",
      stepId: "step_1",
      model: { model: "m", provider: "p" },
      outcome: "completed",
      ...(i % 2 ? { stopReason: "tool_use" } : {}),
      calls: [{ toolCallId: `call_${i}`, providerCallId: `p_${i}`, name: "Read", input: { file_path: "a.txt" } }],
      continuity: i % 2 ? { items: [i] } : undefined,
    },
    {
      kind: "permission_answered",
      requestId: `req_${i}`,
      toolCallId: `call_${i}`,
      outcome: i % 2 ? { optionId: "allow", outcome: "selected", kind: "allow_once" } : { outcome: "cancelled" },
    },
  ] as Fact[];
}

describe("decoding a kind seen often", () => {
  test("gives every record exactly as zod's runtime parser does, keys in the same order", () => {
    const { journal, path } = tempJournal();
    const id = createSession(journal);
    const written: Fact[] = [];
    for (let i = 0; i < COMPILE_AFTER * 2; i++) written.push(...variedFacts(i));
    journal.appendMany(
      id,
      2,
      written.map((fact) => ({ fact, at: new Date(0).toISOString() })),
    );
    journal.close();
    const reader = new SqliteJournal(path);
    const read = [...reader.read(id)].map((r) => r.fact);
    reader.close();
    // What zod's runtime parser makes of each fact as stored (JSON, as the journal keeps it).
    const expected = [startFact(), ...written].map((fact) =>
      factSchema.parse(JSON.parse(JSON.stringify(fact)), { jitless: true }),
    );
    expect(read.map((f) => JSON.stringify(f))).toEqual(expected.map((f) => JSON.stringify(f)));
  });

  test("still rejects a damaged record, naming the record and the field", () => {
    const { journal, path } = tempJournal();
    const id = createSession(journal);
    const chunks = Array.from({ length: COMPILE_AFTER * 2 }, (_, i) => variedFacts(i)[0] as Fact);
    journal.appendMany(
      id,
      2,
      chunks.map((fact) => ({ fact, at: new Date(0).toISOString() })),
    );
    journal.close();
    const seq = chunks.length + 2;
    const db = new Database(path);
    db.run("INSERT INTO facts (session_id, seq, kind, v, at, body) VALUES (?, ?, ?, ?, ?, ?)", [
      id,
      seq,
      "message_chunk",
      1,
      new Date(0).toISOString(),
      JSON.stringify({ stepId: "s", messageId: "m", stream: "answer", text: 42 }),
    ]);
    db.close();
    const reader = new SqliteJournal(path);
    let failure: unknown;
    try {
      for (const _ of reader.read(id)) void _;
    } catch (error) {
      failure = error;
    } finally {
      reader.close();
    }
    expect(failure).toBeInstanceOf(JournalError);
    expect((failure as JournalError).message).toBe(
      `session ${id} record ${seq} (message_chunk) does not match its schema: text: Invalid input: expected string, received number`,
    );
  });
});
