/**
 * A follower knows the session's state (the turn running, the questions open, which prompt became
 * which turn) from the one state fold a session is continued from (replay/state.ts), so a follower
 * and the session agree: a recovery closes only the turn it names.
 */
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { describe, expect, test } from "bun:test";
import { followLive, sendHistory } from "../../src/core/follow/session-follower.ts";
import { drawingSink } from "../../src/core/session/replay-sink.ts";
import type { Fact } from "../../src/journal/facts/index.ts";
import type { SqliteJournal } from "../../src/journal/sqlite-store.ts";
import { Projector } from "../../src/replay/project.ts";
import { SessionStateFold } from "../../src/replay/state.ts";
import { turnEndUpdate } from "../../src/replay/turn-end.ts";
import { until } from "../support/acp-session.ts";
import { createSession, tempJournal } from "../support/journal.ts";

const prompted = (turnId: string, requestId?: string): Fact => ({
  kind: "prompt_received",
  turnId,
  messageId: `msg_${turnId}`,
  blocks: [{ type: "text", text: "go" }],
  ...(requestId ? { from: { requestId, by: { host: "h", pid: 1, startTime: "s" } } } : {}),
});

/** A recovery that names a turn other than the one running (`turn_other`). */
const recoveredOther: Fact = { kind: "session_recovered", interruptedTurnId: "turn_other", calls: [] };

function journalOf(facts: Fact[]): { journal: SqliteJournal; sessionId: string } {
  const { journal } = tempJournal();
  const sessionId = createSession(journal);
  journal.acquire(sessionId);
  let seq = 2;
  for (const fact of facts) journal.append(sessionId, seq++, fact, new Date().toISOString());
  journal.release(sessionId);
  return { journal, sessionId };
}

describe("the state a follower folds", () => {
  test("a recovery that names another turn leaves the running turn running, in the session's fold", () => {
    const state = new SessionStateFold();
    state.apply(prompted("turn_b"), 2);
    state.apply(recoveredOther, 3);
    expect(state.runningTurn()).toBe("turn_b");
    state.apply({ kind: "session_recovered", interruptedTurnId: "turn_b", calls: [] }, 4);
    expect(state.runningTurn()).toBeUndefined();
  });

  test("is the session's fold: the turn running after a recovery that names another is still running", async () => {
    const { journal, sessionId } = journalOf([prompted("turn_b"), recoveredOther]);
    try {
      const projector = new Projector({ notices: false, replay: true, sessionId });
      const following = await sendHistory(
        journal,
        sessionId,
        projector,
        { policy: "none" },
        drawingSink(() => {}),
      );
      expect(following.state.runningTurn()).toBe("turn_b");
    } finally {
      journal.closeNow();
    }
  });

  test("whose writer is gone with that turn running, shows the turn interrupted", async () => {
    const { journal, sessionId } = journalOf([prompted("turn_b"), recoveredOther]);
    const shown: SessionUpdate[] = [];
    const stop = new AbortController();
    try {
      const projector = new Projector({ notices: false, replay: true, sessionId });
      const sink = drawingSink((update) => shown.push(update));
      const following = await sendHistory(journal, sessionId, projector, { policy: "none" }, sink);
      const live = followLive(journal, sessionId, following, sink, stop.signal);
      await until(() => shown.length > 0, "the follower to see the writer is gone", 5_000);
      stop.abort();
      await live;
      expect(shown).toContainEqual(turnEndUpdate({ turnId: "turn_b", ending: "interrupted" }));
    } finally {
      stop.abort();
      journal.closeNow();
    }
  });

  test("knows the questions open: asked, then answered, or closed by the recovery of their call", () => {
    const state = new SessionStateFold();
    const options = [{ optionId: "allow", name: "Allow", kind: "allow_once" as const }];
    state.apply({ kind: "permission_requested", requestId: "req_a", toolCallId: "call_a", options }, 2);
    state.apply({ kind: "permission_requested", requestId: "req_b", toolCallId: "call_b", options }, 3);
    expect([...state.openQuestions.keys()]).toEqual(["req_a", "req_b"]);
    state.apply(
      {
        kind: "permission_answered",
        requestId: "req_a",
        toolCallId: "call_a",
        outcome: { outcome: "selected", optionId: "allow" },
      },
      4,
    );
    state.apply(
      { kind: "session_recovered", calls: [{ toolCallId: "call_b", mayHaveRun: false, modelText: "never ran" }] },
      5,
    );
    expect(state.openQuestions.size).toBe(0);
  });

  test("knows which turn a controller's prompt became", () => {
    const state = new SessionStateFold();
    state.apply(prompted("turn_c", "req_1"), 2);
    expect(state.lastTurn).toEqual({ turnId: "turn_c", ended: false, requestId: "req_1" });
  });
});
