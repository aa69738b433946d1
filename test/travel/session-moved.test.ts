/** A session moved to another directory: tools run there, the model is told once, nothing is shown. */
import { describe, expect, test } from "bun:test";
import type { Fact } from "../../src/journal/facts/index.ts";
import { ConversationFold, movedNote } from "../../src/replay/conversation.ts";
import { Projector } from "../../src/replay/project.ts";
import { SessionStateFold } from "../../src/replay/state.ts";
import { startFact } from "../support/journal.ts";

const moved: Fact = {
  kind: "session_moved",
  fromCwd: "/ci/build/app",
  cwd: "/home/me/app",
  origin: { host: "laptop" },
};
const prompt = (turnId: string): Fact => ({
  kind: "prompt_received",
  turnId,
  messageId: `msg_${turnId}`,
  blocks: [{ type: "text", text: "go on" }],
});

describe("a moved session", () => {
  test("its state's directory is the new one", () => {
    const state = new SessionStateFold();
    [startFact("/ci/build/app"), moved].forEach((fact, i) => state.apply(fact, i + 1));
    expect(state.cwd).toBe("/home/me/app");
  });

  test("the model is told the new directory with the next prompt only", () => {
    const conversation = new ConversationFold();
    for (const fact of [startFact("/ci/build/app"), moved, prompt("t1"), prompt("t2")]) conversation.apply(fact);
    expect(conversation.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: movedNote("/ci/build/app", "/home/me/app") },
          { type: "text", text: "go on" },
        ],
      },
      { role: "user", content: [{ type: "text", text: "go on" }] },
    ]);
    expect(movedNote("/ci/build/app", "/home/me/app")).toContain("The working directory is now /home/me/app");
  });

  test("the move shows nothing: the transcript stays as it was shown where it ran", () => {
    const projector = new Projector({ notices: false, replay: true, sessionId: "ses_x" });
    expect(projector.apply({ seq: 2, at: "2026-01-01T00:00:00.000Z", fact: moved })).toEqual([]);
  });
});
