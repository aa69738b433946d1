/**
 * Random sessions for the replay cache's properties: prompts, streamed chunks whose messages may
 * run on across a turn's end, notices, plans, titles, tool calls left open or finished (some with
 * hook outcomes on their cards, some touched again in a later turn), retracted turns, an
 * unfinished last turn.
 */
import type { Fact } from "../../src/journal/facts/index.ts";

/** `sessionId`: the session the facts go to (most hook outcomes come from it, so they attach to its cards). */
export function randomSession(random: () => number, sessionId = "ses_random"): Fact[] {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const facts: Fact[] = [];
  const turns = 1 + Math.floor(random() * 6);
  let call = 0;
  for (let t = 0; t < turns; t++) {
    const turnId = `turn_${t}`;
    facts.push({
      kind: "prompt_received",
      turnId,
      messageId: `u_${t}`,
      blocks: [{ type: "text", text: `prompt ${t}` }],
    });
    // Message ids drawn from a small pool: a message may go on in the next turn.
    for (let i = 0, n = Math.floor(random() * 12); i < n; i++) {
      const r = random();
      if (r < 0.55)
        facts.push({
          kind: "message_chunk",
          stepId: `s_${t}`,
          messageId: pick(["m_a", "m_b", `m_${t}`]),
          stream: pick(["answer", "thought"] as const),
          text: pick(["a ", "bb ", "ccc "]),
        });
      else if (r < 0.65)
        facts.push({
          kind: "notice_shown",
          messageId: `n_${t}_${i}`,
          severity: pick(["info", "warning"] as const),
          title: "note",
          ...(random() < 0.5 ? { description: "why" } : {}),
        });
      else if (r < 0.72)
        facts.push({
          kind: "plan_updated",
          entries: [{ content: "do it", priority: "medium", status: pick(["pending", "completed"] as const) }],
        });
      else if (r < 0.76) facts.push({ kind: "title_set", title: `title ${t}` });
      else if (r < 0.84 && call > 0) {
        // A fact about a call of this turn or an earlier one (its card restored from the state).
        const toolCallId = `call_${Math.floor(random() * call)}`;
        const k = random();
        if (k < 0.4)
          facts.push(
            hookOutcome(
              random() < 0.8 ? sessionId : "ses_other",
              toolCallId,
              pick(["ho_a", "ho_b", `ho_${t}`]),
              1 + Math.floor(random() * 3),
            ),
          );
        else if (k < 0.7) {
          facts.push({ kind: "permission_requested", requestId: `pr_${t}_${i}`, toolCallId, options: OPTIONS });
          if (random() < 0.7)
            facts.push({
              kind: "permission_answered",
              requestId: `pr_${t}_${i}`,
              toolCallId,
              outcome: { outcome: "selected", optionId: "allow" },
            });
        } else facts.push({ kind: "tool_call_started", toolCallId });
      } else {
        const toolCallId = `call_${call++}`;
        facts.push({
          kind: "tool_call_announced",
          toolCallId,
          name: "Read",
          title: "Read x",
          toolKind: "read",
          rawInput: { file_path: "/w/x" },
          locations: [{ path: "/w/x" }],
          content: [],
        });
        if (random() < 0.8) facts.push({ kind: "tool_call_started", toolCallId });
        if (random() < 0.7) {
          facts.push({
            kind: "tool_call_finished",
            toolCallId,
            status: pick(["completed", "failed"] as const),
            content: [{ type: "content", content: { type: "text", text: "out" } }],
            result: { text: "out", isError: false },
          });
        }
      }
    }
    const last = t === turns - 1;
    if (last && random() < 0.3) break; // the process died mid-turn
    const refused = random() < 0.2;
    facts.push({
      kind: "turn_ended",
      turnId,
      outcome: "completed",
      stopReason: refused ? "refusal" : "end_turn",
      ...(refused ? { retracted: true } : {}),
    });
    if (random() < 0.3)
      facts.push({ kind: "message_chunk", stepId: `s_${t}x`, messageId: "m_a", stream: "answer", text: "between " });
  }
  return facts;
}

const OPTIONS = [
  { optionId: "allow", name: "Allow", kind: "allow_once" as const },
  { optionId: "reject", name: "Reject", kind: "reject_once" as const },
];

function hookOutcome(originSessionId: string, toolCallId: string, outcomeId: string, revision: number): Fact {
  return {
    kind: "hook_outcome",
    outcomeId,
    revision,
    messageId: `msg_${outcomeId}_${revision}`,
    event: "PostToolUse",
    originSessionId,
    toolCallId,
    status: "settled",
    decision: "deny",
    reason: `no ${revision}`,
    runs: [],
    systemMessages: [],
  };
}
