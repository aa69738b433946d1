/** The measures behind pruning and compaction: the threshold, the request's size, which results to prune, and the fold. */
import { describe, expect, test } from "bun:test";
import { autoCompactPct, thresholdTokens } from "../../src/core/config/autocompact-threshold.ts";
import { KEEP_NEWEST, planPrune } from "../../src/core/compaction/prune-plan.ts";
import { messageTokens, requestTokens } from "../../src/core/compaction/request-size.ts";
import { settingsSchema } from "../../src/core/config/settings-schema.ts";
import type { Fact } from "../../src/journal/facts/index.ts";
import { CONTINUE_NOTE, ConversationFold, prunedStub } from "../../src/replay/conversation.ts";
import type { ModelMessage } from "../../src/replay/model-messages.ts";

const MODEL = { provider: "scripted", model: "echo" };

describe("the compaction threshold", () => {
  test("VERBATIM_AUTOCOMPACT_PCT wins over Claude Code's variable, which wins over the config file", () => {
    expect(autoCompactPct({ VERBATIM_AUTOCOMPACT_PCT: "60", CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: "70" }, 90).pct).toBe(60);
    expect(autoCompactPct({ CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: "70" }, 90).pct).toBe(70);
    expect(autoCompactPct({}, 90).pct).toBe(90);
    expect(autoCompactPct({}, undefined).pct).toBe(80);
  });

  test("a variable that is no percentage is reported and passed over", () => {
    const r = autoCompactPct({ VERBATIM_AUTOCOMPACT_PCT: "150", CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: "75" }, undefined);
    expect(r.pct).toBe(75);
    expect(r.warnings).toEqual([
      "VERBATIM_AUTOCOMPACT_PCT=150 is not a percentage above 0 and at most 100; it is not used.",
    ]);
  });

  test("the threshold is a share of each model's own window", () => {
    expect(thresholdTokens(200_000, 80)).toBe(160_000);
    expect(thresholdTokens(32_768, 50)).toBe(16_384);
  });

  test("the config file's autoCompactPct is a percentage; anything else is a clear error", () => {
    expect(settingsSchema.safeParse({ autoCompactPct: 70 }).success).toBe(true);
    const bad = settingsSchema.safeParse({ autoCompactPct: 0 });
    expect(bad.success).toBe(false);
    expect(JSON.stringify(bad.error?.issues)).toContain("expected a percentage of the context window");
  });
});

describe("the next request's size", () => {
  const step: ModelMessage = { role: "assistant", text: "ok", calls: [], model: MODEL };
  const user = (text: string): ModelMessage => ({ role: "user", content: [{ type: "text", text }] });

  test("after a step: its reported usage plus what was added since, at four characters a token", () => {
    const messages = [user("a".repeat(4000)), step, user("b".repeat(400))];
    expect(requestTokens({ messages, system: "", tools: [], usage: { used: 1500, size: 10_000 } })).toBe(1600);
  });

  test("with no step since the context restarted, the whole request is estimated", () => {
    const messages = [user("c".repeat(400))];
    expect(requestTokens({ messages, system: "s".repeat(40), tools: [], usage: { used: 9, size: 10_000 } })).toBe(
      Math.ceil((40 + 2) / 4) + 100,
    );
    expect(messageTokens(messages)).toBe(100);
  });
});

describe("which results are pruned", () => {
  const results = (sizes: number[]) => sizes.map((chars, i) => ({ toolCallId: `call_${i}`, chars }));

  test("the oldest first, until enough is freed", () => {
    const plan = planPrune(results([4000, 4000, 4000, 4000, 4000, 4000]), 900);
    expect(plan.toolCallIds).toEqual(["call_0"]);
    expect(plan.freed).toBe(Math.ceil((4000 - prunedStub(4000).length) / 4));
  });

  test(`never the newest ${KEEP_NEWEST}, never a short one`, () => {
    const plan = planPrune(results([100, 4000, 4000, 4000, 4000]), 1_000_000);
    expect(plan.toolCallIds).toEqual(["call_1"]);
  });
});

describe("the model's context after pruning and mid-turn compaction", () => {
  const facts: Fact[] = [
    { kind: "prompt_received", turnId: "turn_1", messageId: "msg_1", blocks: [{ type: "text", text: "Read it" }] },
    {
      kind: "step_ended",
      turnId: "turn_1",
      stepId: "step_1",
      model: MODEL,
      outcome: "completed",
      stopReason: "tool_use",
      calls: [{ toolCallId: "tc_1", providerCallId: "p_1", name: "Read", input: {} }],
    },
    {
      kind: "tool_call_finished",
      toolCallId: "tc_1",
      status: "completed",
      content: [],
      result: { text: "x".repeat(1000), isError: false },
    },
  ];

  test("a pruned result is given to the model as a stub saying what it was", () => {
    const fold = new ConversationFold();
    for (const f of facts) fold.apply(f);
    expect(fold.prunable()).toEqual([{ toolCallId: "tc_1", chars: 1000 }]);
    fold.apply({
      kind: "tool_results_pruned",
      turnId: "turn_1",
      messageId: "msg_2",
      toolCallIds: ["tc_1"],
      freed: 220,
      context: { used: 100, size: 1000 },
    });
    const last = fold.messages.at(-1);
    expect(last?.role === "tool_results" && last.results[0]?.text).toBe(prunedStub(1000));
    expect(fold.prunable()).toEqual([]);
  });

  test("a mid-turn compaction restarts the context from the summary and a note that the turn goes on", () => {
    const fold = new ConversationFold();
    for (const f of facts) fold.apply(f);
    fold.apply({
      kind: "compaction_ended",
      compactionId: "cmp_1",
      turnId: "turn_1",
      outcome: "completed",
      summary: "Read once.",
      midTurn: true,
    });
    expect(fold.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: expect.stringContaining("Read once.") },
          { type: "text", text: CONTINUE_NOTE },
        ],
      },
    ]);
    expect(fold.prunable()).toEqual([]);
  });
});
