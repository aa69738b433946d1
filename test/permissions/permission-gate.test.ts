/**
 * The permission gate: the question is journaled before it is asked, the answer before it is
 * acted on, "always" answers become rules; an unoffered answer fails closed and is recorded as
 * given; a cancel while asking refuses the call at once.
 */
import { describe, expect, test } from "bun:test";
import { permissionGate } from "../../src/core/permissions/permission-gate.ts";
import type { PermissionAsker } from "../../src/core/permissions/permission-questions.ts";
import { editTool } from "../../src/core/tools/edit.ts";
import type { Tool } from "../../src/core/tools/tool.ts";
import type { GateSession } from "../../src/core/permissions/call-gate.ts";
import type { Fact } from "../../src/journal/facts/index.ts";
import { SessionStateFold } from "../../src/replay/state.ts";
import { startFact } from "../support/journal.ts";

function session(): GateSession & { facts: Fact[]; events: string[] } {
  const state = new SessionStateFold();
  state.apply(startFact(), 1);
  const facts: Fact[] = [];
  const events: string[] = [];
  return {
    state,
    facts,
    events,
    async record(fact) {
      facts.push(fact);
      events.push(`recorded ${fact.kind}`);
      state.apply(fact, facts.length + 1);
    },
  };
}

const request = (signal = new AbortController().signal) => ({
  toolCallId: "call_1",
  tool: editTool as Tool,
  input: { file_path: "/w/a", old_string: "a", new_string: "b" },
  signal,
  roots: ["/w"],
});

const answering =
  (s: { events: string[] }, optionId: string): PermissionAsker =>
  async (question) => {
    s.events.push(`asked ${question.options.map((o) => o.optionId).join(",")}`);
    return { outcome: "selected", optionId };
  };

describe("the permission gate", () => {
  test("journals that no rule decided, the question, asks, journals the answer, then runs", async () => {
    const s = session();
    const decision = await permissionGate({ ask: answering(s, "allow_once") })(request(), s);
    expect(decision.run).toBe(true);
    expect(s.events).toEqual([
      "recorded permission_ruled",
      "recorded permission_requested",
      "asked allow_once,allow_always,reject_once,reject_always",
      "recorded permission_answered",
    ]);
    expect(s.facts[0]).toEqual({ kind: "permission_ruled", toolCallId: "call_1", decision: "ask", rules: [] });
    expect(s.facts[2]).toMatchObject({
      kind: "permission_answered",
      outcome: { outcome: "selected", optionId: "allow_once", kind: "allow_once" },
    });
  });

  test("an always answer is journaled as a rule, and the next call is not asked about", async () => {
    const s = session();
    const gate = permissionGate({ ask: answering(s, "allow_always") });
    await gate(request(), s);
    expect(s.facts.map((f) => f.kind)).toEqual([
      "permission_ruled",
      "permission_requested",
      "permission_answered",
      "permission_rule_added",
    ]);
    expect(s.state.rules).toMatchObject([{ toolName: "Edit", decision: "allow" }]);
    expect((await gate(request(), s)).run).toBe(true);
    expect(s.events.filter((e) => e.startsWith("asked")).length).toBe(1);
  });

  test("reject_always refuses now and later, as a rule", async () => {
    const s = session();
    const gate = permissionGate({ ask: answering(s, "reject_always") });
    expect(await gate(request(), s)).toMatchObject({ run: false, by: "user" });
    expect(await gate(request(), s)).toMatchObject({ run: false, by: "rule" });
  });

  test("an answer that was not offered fails closed and is recorded as given", async () => {
    const s = session();
    const decision = await permissionGate({ ask: answering(s, "yes_please") })(request(), s);
    expect(decision).toMatchObject({
      run: false,
      by: "user",
      reason: 'the answer "yes_please" was not one of the options offered',
    });
    expect(s.facts[2]).toEqual({
      kind: "permission_answered",
      requestId: expect.any(String),
      toolCallId: "call_1",
      outcome: { outcome: "selected", optionId: "yes_please" },
    });
    expect(s.state.rules).toEqual([]);
  });

  test("a cancel while the question is open refuses the call at once, even if the client never answers", async () => {
    const s = session();
    const abort = new AbortController();
    const pending = permissionGate({ ask: () => new Promise(() => {}) })(request(abort.signal), s);
    await Bun.sleep(1);
    abort.abort();
    expect(await pending).toMatchObject({ run: false, by: "cancel" });
    expect(s.facts[2]).toMatchObject({ kind: "permission_answered", outcome: { outcome: "cancelled" } });
  });

  test("a client that fails to answer refuses the call and says why, without ending the turn", async () => {
    const s = session();
    const decision = await permissionGate({
      ask: async () => {
        throw new Error("connection lost");
      },
    })(request(), s);
    expect(decision).toMatchObject({
      run: false,
      by: "cancel",
      reason: "the client did not answer the permission question (connection lost)",
    });
    expect(decision).not.toHaveProperty("endsTurn");
    expect(s.facts[2]).toMatchObject({
      kind: "permission_answered",
      outcome: { outcome: "cancelled" },
      failure: "connection lost",
    });
  });

  test("a client's cancelled answer refuses the call and ends the turn", async () => {
    const s = session();
    const decision = await permissionGate({ ask: async () => ({ outcome: "cancelled" }) })(request(), s);
    expect(decision).toMatchObject({ run: false, by: "cancel", endsTurn: true });
    expect(s.facts[2]).toEqual({
      kind: "permission_answered",
      requestId: expect.any(String),
      toolCallId: "call_1",
      outcome: { outcome: "cancelled" },
    });
  });
});
