/**
 * Projecting hook outcomes (pure): attached only to the exact card of a call of this session,
 * otherwise shown on their own; a higher revision replaces the outcome in place; a stale or
 * conflicting record never overwrites it and stays visible as evidence. And what the model is
 * given of them.
 */
import { describe, expect, test } from "bun:test";
import type { Fact, FactOf, StoredFact } from "../../src/journal/facts/index.ts";
import { conversation } from "../../src/replay/conversation.ts";
import { Projector } from "../../src/replay/project.ts";
import { fold } from "../../src/view/view-model.ts";

let seq = 0;
const rec = (fact: Fact): StoredFact => ({ seq: ++seq, at: "2026-11-30T00:00:00.000Z", fact });
const projector = () => new Projector({ notices: false, replay: false, sessionId: "ses_a" });
const show = (facts: Fact[], p = projector()) => fold(facts.flatMap((f) => p.apply(rec(f))));

const announce = (toolCallId: string): Fact => ({
  kind: "tool_call_announced",
  toolCallId,
  name: "Bash",
  title: "ls",
  toolKind: "execute",
  rawInput: { command: "ls" },
  locations: [],
  content: [],
});

type Outcome = FactOf<"hook_outcome">;
const outcome = (over: Partial<Outcome> = {}): Outcome => ({
  kind: "hook_outcome",
  outcomeId: "ho_1",
  revision: 2,
  messageId: `msg_${over.revision ?? 2}_${over.toolCallId ?? "none"}_${over.decision ?? "deny"}`,
  event: "PreToolUse",
  originSessionId: "ses_a",
  toolCallId: "call_1",
  status: "settled",
  decision: "deny",
  reason: "no",
  runs: [
    {
      hookId: "hk_1",
      hookRunId: "hr_1",
      source: { kind: "project", path: "/w/.claude/settings.json" },
      command: "./guard.sh",
      status: "completed",
      exitCode: 0,
      entries: [],
    },
  ],
  systemMessages: [],
  ...over,
});

const cardText = (view: ReturnType<typeof show>, id = "call_1") =>
  (view.toolCalls[id]?.content ?? [])
    .map((c) => (c.type === "content" && c.content.type === "text" ? c.content.text : ""))
    .join("\n");
const cardHooks = (view: ReturnType<typeof show>, id = "call_1") =>
  (view.toolCalls[id]?.meta?.verbatim as { hooks?: { revision: number; decision: string }[] } | undefined)?.hooks ?? [];
const messages = (view: ReturnType<typeof show>) => Object.values(view.messages);

describe("where an outcome is shown", () => {
  test("on the card of the call it judged, as a line and under _meta.verbatim.hooks", () => {
    const view = show([announce("call_1"), outcome()]);
    expect(cardText(view)).toBe("Hook PreToolUse: denied the call — no.");
    expect(cardHooks(view)).toEqual([
      expect.objectContaining({
        outcomeId: "ho_1",
        revision: 2,
        decision: "deny",
        toolCallId: "call_1",
        originSessionId: "ses_a",
      }),
    ]);
    expect(messages(view)).toEqual([]);
  });

  test("an outcome naming a call with no card is shown on its own, never attached elsewhere", () => {
    const view = show([announce("call_1"), outcome({ toolCallId: "call_unknown" })]);
    expect(cardText(view)).toBe("");
    expect(messages(view).map((m) => m.meta?.verbatim)).toEqual([
      { hook: expect.objectContaining({ toolCallId: "call_unknown" }) },
    ]);
  });

  test("an outcome from another session is shown on its own even if the call id matches a card", () => {
    const view = show([announce("call_1"), outcome({ originSessionId: "ses_child" })]);
    expect(cardHooks(view)).toEqual([]);
    expect(messages(view)).toHaveLength(1);
  });

  test("an outcome tied to no call is a message of its own once settled; while running it shows nothing", () => {
    const { toolCallId: _none, ...noCall } = outcome({ event: "Stop", decision: "none", reason: undefined });
    const view = show([
      { ...noCall, revision: 1, status: "running", messageId: "msg_r" },
      { ...noCall, messageId: "msg_s" },
    ]);
    expect(view.timeline).toEqual(["message:msg_s"]);
    expect(messages(view)[0]?.content).toEqual([{ type: "text", text: "Hook Stop: done." }]);
  });
});

describe("revisions", () => {
  test("a higher revision replaces the outcome's line and meta in place", () => {
    const view = show([
      announce("call_1"),
      outcome({ revision: 1, status: "running", decision: "none", reason: undefined }),
      { kind: "tool_call_refused", toolCallId: "call_1", by: "user", reason: "", result: { text: "x", isError: true } },
      outcome({ revision: 2 }),
    ]);
    expect(cardText(view)).toBe("Hook PreToolUse: denied the call — no.\nNot run: refused by the user.");
    expect(cardHooks(view).map((h) => h.revision)).toEqual([2]);
  });

  test("a stale revision never overwrites the outcome; it is shown apart as evidence", () => {
    const view = show([
      announce("call_1"),
      outcome({ revision: 2 }),
      outcome({ revision: 1, decision: "allow", reason: undefined }),
    ]);
    expect(cardHooks(view)).toEqual([expect.objectContaining({ revision: 2, decision: "deny" })]);
    const [evidence] = messages(view);
    expect(evidence?.meta?.verbatim).toEqual({
      hook: expect.objectContaining({ revision: 1, decision: "allow" }),
      notApplied: "revision 1 is older than revision 2, already shown",
    });
  });

  test("the same revision with other content is a conflict, shown apart; the same record again changes nothing", () => {
    const p = projector();
    p.apply(rec(announce("call_1")));
    p.apply(rec(outcome()));
    expect(p.apply(rec(outcome()))).toEqual([]);
    const conflict = p.apply(rec(outcome({ decision: "allow", reason: undefined })));
    expect(conflict).toEqual([
      expect.objectContaining({
        sessionUpdate: "agent_message_chunk",
        _meta: { verbatim: expect.objectContaining({ notApplied: "revision 2 was already shown with other content" }) },
      }),
    ]);
  });

  test("a later revision that names another call is evidence, not a move to that card", () => {
    const view = show([
      announce("call_1"),
      announce("call_2"),
      outcome({ revision: 1, status: "running", decision: "none" }),
      outcome({ revision: 2, toolCallId: "call_2" }),
    ]);
    expect(cardHooks(view, "call_2")).toEqual([]);
    expect(cardHooks(view, "call_1").map((h) => h.revision)).toEqual([1]);
    expect(messages(view).map((m) => (m.meta?.verbatim as { notApplied: string }).notApplied)).toEqual([
      "it names call call_2, but the outcome belongs to call call_1",
    ]);
  });
});

describe("what the model is given", () => {
  const prompt: Fact = {
    kind: "prompt_received",
    turnId: "turn_1",
    messageId: "msg_p",
    blocks: [{ type: "text", text: "hi" }],
  };
  const step: Fact = {
    kind: "step_ended",
    turnId: "turn_1",
    stepId: "s1",
    model: { provider: "p", model: "m" },
    outcome: "completed",
    stopReason: "tool_use",
    calls: [{ toolCallId: "call_1", providerCallId: "p1", name: "Bash", input: { command: "ls" } }],
  };

  test("context tied to a call goes next to its result", () => {
    const messages = conversation([
      prompt,
      step,
      outcome({ event: "PostToolUse", decision: "none", modelContext: "<hook_context>ok</hook_context>" }),
      {
        kind: "tool_call_finished",
        toolCallId: "call_1",
        status: "completed",
        content: [],
        result: { text: "a.txt", isError: false },
      },
    ]);
    expect(messages.at(-1)).toEqual({
      role: "tool_results",
      results: [
        { providerCallId: "p1", name: "Bash", text: "a.txt\n\n<hook_context>ok</hook_context>", isError: false },
      ],
    });
  });

  test("a blocked prompt is taken back; UserPromptSubmit context joins the prompt; a Stop block is the next instruction", () => {
    const { toolCallId: _none, ...turnOutcome } = outcome({ turnId: "turn_1" });
    expect(conversation([prompt, { ...turnOutcome, event: "UserPromptSubmit", decision: "block" }])).toEqual([]);
    expect(
      conversation([prompt, { ...turnOutcome, event: "UserPromptSubmit", decision: "none", modelContext: "ctx" }]),
    ).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "hi" },
          { type: "text", text: "ctx" },
        ],
      },
    ]);
    expect(
      conversation([prompt, { ...turnOutcome, event: "Stop", decision: "block", modelContext: "go on" }]).at(-1),
    ).toEqual({ role: "user", content: [{ type: "text", text: "go on" }] });
  });

  test("a running record gives the model nothing", () => {
    const { toolCallId: _none, ...turnOutcome } = outcome({ turnId: "turn_1" });
    expect(
      conversation([
        prompt,
        { ...turnOutcome, event: "UserPromptSubmit", status: "running", revision: 1, decision: "block" },
      ]),
    ).toHaveLength(1);
  });
});
