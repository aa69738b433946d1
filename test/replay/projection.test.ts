import { describe, expect, test } from "bun:test";
import type { Fact, StoredFact } from "../../src/journal/facts/index.ts";
import { ChunkCoalescer } from "../../src/replay/coalesce.ts";
import { conversation } from "../../src/replay/conversation.ts";
import { Projector } from "../../src/replay/project.ts";
import { SessionStateFold } from "../../src/replay/state.ts";
import { fold } from "../../src/view/view-model.ts";

let seq = 0;
const rec = (fact: Fact): StoredFact => ({ seq: ++seq, at: "2026-11-30T00:00:00.000Z", fact });
const live = () => new Projector({ notices: false, replay: false });

const announce = (toolCallId: string): Fact => ({
  kind: "tool_call_announced",
  toolCallId,
  name: "Read",
  title: "Read /w/a.ts",
  toolKind: "read",
  rawInput: { file_path: "/w/a.ts" },
  locations: [{ path: "/w/a.ts", line: 1 }],
  content: [],
});

describe("the projection", () => {
  test("facts about a call that was never announced show nothing: no card is invented", () => {
    const p = live();
    expect(p.apply(rec({ kind: "tool_call_started", toolCallId: "call_x" }))).toEqual([]);
    expect(
      p.apply(
        rec({
          kind: "tool_call_finished",
          toolCallId: "call_x",
          status: "completed",
          content: [],
          result: { text: "", isError: false },
        }),
      ),
    ).toEqual([]);
  });

  test("a call announced carries name, title, kind, rawInput and locations", () => {
    const [update] = live().apply(rec(announce("call_1")));
    expect(update).toEqual({
      sessionUpdate: "tool_call",
      toolCallId: "call_1",
      name: "Read",
      title: "Read /w/a.ts",
      kind: "read",
      status: "pending",
      rawInput: { file_path: "/w/a.ts" },
      locations: [{ path: "/w/a.ts", line: 1 }],
      content: [],
    });
  });

  test("a refused call ends failed with a visible line and the reason under _meta.verbatim", () => {
    const p = live();
    p.apply(rec(announce("call_1")));
    const [update] = p.apply(
      rec({
        kind: "tool_call_refused",
        toolCallId: "call_1",
        by: "user",
        reason: "not now",
        result: { text: "x", isError: true },
      }),
    );
    expect(update).toMatchObject({
      sessionUpdate: "tool_call_update",
      status: "failed",
      content: [
        { type: "content", content: { type: "text", text: expect.stringContaining("refused by the user — not now") } },
      ],
      _meta: { verbatim: { outcome: { by: "user", reason: "not now" } } },
    });
  });

  test("every update that carries content carries the whole accumulated content", () => {
    const p = live();
    p.apply(rec(announce("call_1")));
    p.apply(
      rec({
        kind: "permission_requested",
        requestId: "perm_1",
        toolCallId: "call_1",
        options: [{ optionId: "ok", name: "Allow", kind: "allow_once" }],
      }),
    );
    p.apply(
      rec({
        kind: "permission_answered",
        requestId: "perm_1",
        toolCallId: "call_1",
        outcome: { outcome: "selected", optionId: "ok", kind: "allow_once" },
      }),
    );
    const [finished] = p.apply(
      rec({
        kind: "tool_call_finished",
        toolCallId: "call_1",
        status: "completed",
        content: [{ type: "content", content: { type: "text", text: "file text" } }],
        result: { text: "", isError: false },
      }),
    );
    expect(finished).toMatchObject({
      content: [
        { type: "content", content: { type: "text", text: "file text" } },
        { type: "content", content: { type: "text", text: "Permission: Allow (allowed once)." } },
      ],
      _meta: { verbatim: { permission: { outcome: { outcome: "selected", optionId: "ok" } } } },
    });
    // design.md's contract, exactly: {options: [{optionId, name, kind}], outcome}.
    const permission = (finished?._meta as { verbatim: { permission: Record<string, unknown> } }).verbatim.permission;
    expect(permission).toEqual({
      options: [{ optionId: "ok", name: "Allow", kind: "allow_once" }],
      outcome: { outcome: "selected", optionId: "ok", kind: "allow_once" },
    });
  });

  test("interruption marks fail open calls without changing the projector", () => {
    const p = live();
    p.apply(rec(announce("call_ran")));
    p.apply(rec({ kind: "tool_call_started", toolCallId: "call_ran" }));
    p.apply(rec(announce("call_waiting")));
    const marks = p.interruptionMarks();
    expect(marks.map((m) => m.sessionUpdate === "tool_call_update" && [m.toolCallId, m.status, m._meta])).toEqual([
      ["call_ran", "failed", { verbatim: { interrupted: { mayHaveRun: true } } }],
      ["call_waiting", "failed", { verbatim: { interrupted: { mayHaveRun: false } } }],
    ]);
    expect(p.interruptionMarks()).toEqual(marks);
    // When the session continues, the journaled recovery shows the same cards the marks showed.
    const recovered = p.apply(
      rec({
        kind: "session_recovered",
        calls: [
          { toolCallId: "call_ran", mayHaveRun: true, modelText: "?" },
          { toolCallId: "call_waiting", mayHaveRun: false, modelText: "?" },
        ],
      }),
    );
    expect(recovered).toEqual(marks);
    expect(p.interruptionMarks()).toEqual([]);
  });

  test("notices: a message with _meta.verbatim.notice, or a live-only ACP notice when the client takes them", () => {
    const notice: Fact = { kind: "notice_shown", messageId: "msg_n", severity: "warning", title: "Retrying" };
    expect(live().apply(rec(notice))).toEqual([
      {
        sessionUpdate: "agent_message_chunk",
        messageId: "msg_n",
        content: { type: "text", text: "Retrying" },
        _meta: { verbatim: { notice: { severity: "warning", title: "Retrying" } } },
      },
    ]);
    expect(new Projector({ notices: true, replay: false }).apply(rec(notice))).toEqual([
      { sessionUpdate: "notice", severity: "warning", title: "Retrying" },
    ]);
    expect(new Projector({ notices: true, replay: true }).apply(rec(notice))).toEqual([]);
  });
});

describe("merging chunks on replay", () => {
  test("consecutive chunks of one message merge; the folded view is the same", () => {
    const updates = [
      {
        sessionUpdate: "agent_message_chunk" as const,
        messageId: "a",
        content: { type: "text" as const, text: "Hel" },
      },
      { sessionUpdate: "agent_message_chunk" as const, messageId: "a", content: { type: "text" as const, text: "lo" } },
      { sessionUpdate: "agent_thought_chunk" as const, messageId: "t", content: { type: "text" as const, text: "hm" } },
      { sessionUpdate: "agent_message_chunk" as const, messageId: "a", content: { type: "text" as const, text: "!" } },
    ];
    const c = new ChunkCoalescer();
    const merged = [...updates.flatMap((u) => c.push(u)), ...c.flush()];
    expect(merged.length).toBe(3);
    expect(fold(merged)).toEqual(fold(updates));
  });
});

describe("the model's context", () => {
  test("thinking and display-only facts never reach it; calls pair with their results", () => {
    const facts: Fact[] = [
      { kind: "prompt_received", turnId: "t1", messageId: "m1", blocks: [{ type: "text", text: "Read a.ts" }] },
      { kind: "message_chunk", stepId: "s1", messageId: "m2", stream: "thought", text: "secret thoughts" },
      { kind: "message_chunk", stepId: "s1", messageId: "m3", stream: "answer", text: "Reading." },
      {
        kind: "step_ended",
        turnId: "t1",
        stepId: "s1",
        model: { provider: "p", model: "m" },
        outcome: "completed",
        stopReason: "tool_use",
        calls: [{ toolCallId: "call_1", providerCallId: "prov_1", name: "Read", input: { file_path: "/w/a.ts" } }],
        continuity: { signature: "sig" },
      },
      announce("call_1"),
      { kind: "plan_updated", entries: [] },
      {
        kind: "tool_call_finished",
        toolCallId: "call_1",
        status: "completed",
        content: [{ type: "content", content: { type: "text", text: "SHOWN ONLY" } }],
        result: { text: "1\tconst a = 1;", isError: false },
      },
    ];
    expect(conversation(facts)).toEqual([
      { role: "user", content: [{ type: "text", text: "Read a.ts" }] },
      {
        role: "assistant",
        text: "Reading.",
        calls: [{ providerCallId: "prov_1", name: "Read", input: { file_path: "/w/a.ts" } }],
        continuity: { signature: "sig" },
        model: { provider: "p", model: "m" },
      },
      {
        role: "tool_results",
        results: [{ providerCallId: "prov_1", name: "Read", text: "1\tconst a = 1;", isError: false }],
      },
    ]);
  });

  test("a step cut off by a crash is shown to the model as what the user saw, once the session continues", () => {
    const facts: Fact[] = [
      { kind: "prompt_received", turnId: "t1", messageId: "m1", blocks: [{ type: "text", text: "Go" }] },
      { kind: "message_chunk", stepId: "s1", messageId: "m2", stream: "answer", text: "Half an ans" },
      { kind: "session_recovered", interruptedTurnId: "t1", calls: [] },
      { kind: "prompt_received", turnId: "t2", messageId: "m3", blocks: [{ type: "text", text: "Continue" }] },
    ];
    expect(conversation(facts).map((m) => (m.role === "assistant" ? `assistant: ${m.text}` : m.role))).toEqual([
      "user",
      "assistant: Half an ans",
      "user",
    ]);
  });
});

describe("usage and cost", () => {
  const usage = (extra: Partial<Extract<Fact, { kind: "usage_recorded" }>>): Fact => ({
    kind: "usage_recorded",
    stepId: "step_1",
    inputTokens: 100,
    outputTokens: 10,
    used: 110,
    size: 1000,
    ...extra,
  });
  const usd = (amount: number) => ({ amount, currency: "USD" });

  test("a usage update shows the session's cost so far, as recorded", () => {
    const [update] = live().apply(rec(usage({ cost: usd(0.001), sessionCost: usd(0.003) })));
    expect(update).toEqual({ sessionUpdate: "usage_update", used: 110, size: 1000, cost: usd(0.003) });
  });

  test("a record from before the session's cost was kept shows the step's cost, as it did then", () => {
    const [update] = live().apply(rec(usage({ cost: usd(0.001) })));
    expect(update).toEqual({ sessionUpdate: "usage_update", used: 110, size: 1000, cost: usd(0.001) });
  });

  test("the state adds up every priced step, compaction and subagent, older records included", () => {
    const state = new SessionStateFold();
    state.apply(usage({ cost: usd(0.001) }), 1);
    state.apply(usage({ cost: usd(0.002) }), 2);
    state.apply(
      {
        kind: "compaction_ended",
        compactionId: "cmp_1",
        turnId: "turn_2",
        outcome: "completed",
        summary: "s",
        cost: usd(0.0005),
      },
      3,
    );
    state.apply(
      {
        kind: "tool_call_finished",
        toolCallId: "call_t",
        status: "completed",
        content: [],
        result: { text: "r", isError: false },
        cost: usd(0.0002),
      },
      4,
    );
    expect(state.sessionCost).toEqual(usd(0.0037));
    state.apply(usage({ cost: usd(0.001), sessionCost: usd(0.0047) }), 5);
    expect(state.sessionCost).toEqual(usd(0.0047));
  });
});
