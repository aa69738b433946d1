/**
 * A compaction's contract (core/compaction/compact.ts): the provider's failures are its outcome,
 * recorded; what the journal refuses is thrown as it is, and nothing more of the compaction is
 * recorded then.
 */
import { describe, expect, test } from "bun:test";
import { compact, type CompactionRun } from "../../src/core/compaction/compact.ts";
import type { ProviderEvent } from "../../src/core/providers/types.ts";
import type { Fact } from "../../src/journal/facts/index.ts";

function run(events: ProviderEvent[], record: (fact: Fact) => Promise<void>): CompactionRun {
  return {
    turnId: "turn_1",
    trigger: "manual",
    history: [{ role: "user", content: [{ type: "text", text: "hello" }] }],
    record,
    provider: {
      id: "fake",
      contextWindow: () => 1000,
      stream: async function* () {
        yield* events;
      },
    },
    model: { provider: "scripted", model: "plain" },
    tools: [],
    cwd: "/work",
    signal: new AbortController().signal,
  };
}

const said = (text: string): ProviderEvent => ({ type: "text_delta", text }) as ProviderEvent;

describe("a compaction", () => {
  test("a provider's failure is its outcome, recorded", async () => {
    const recorded: Fact[] = [];
    const failing = run([said("Sum"), { type: "error", message: "overloaded" } as ProviderEvent], async (fact) => {
      recorded.push(fact);
    });
    expect(await compact(failing)).toBe("failed");
    expect(recorded.at(-1)).toMatchObject({ kind: "compaction_ended", outcome: "failed", error: "overloaded" });
  });

  test("a chunk the journal refuses is thrown as it is, and the compaction is not recorded failed", async () => {
    const recorded: Fact[] = [];
    const refused = new Error("the journal cannot be reached");
    const journalDown = run([said("Sum"), said("mary"), { type: "done" } as ProviderEvent], async (fact) => {
      if (fact.kind === "compaction_chunk") throw refused;
      recorded.push(fact);
    });
    await expect(compact(journalDown)).rejects.toBe(refused);
    expect(recorded.map((f) => f.kind)).toEqual(["compaction_started"]);
  });
});
