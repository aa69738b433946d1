/** The one renderer streams: each part once, in timeline order, as soon as it can no longer change. */
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { describe, expect, test } from "bun:test";
import { TranscriptRecorder } from "../../src/view/transcript.ts";
import { TranscriptStream, type Piece } from "../../src/view/transcript-stream.ts";

const say = (messageId: string, text: string): SessionUpdate => ({
  sessionUpdate: "agent_message_chunk",
  messageId,
  content: { type: "text", text },
});
const announce = (toolCallId: string): SessionUpdate => ({
  sessionUpdate: "tool_call",
  toolCallId,
  title: `Read ${toolCallId}.txt`,
  kind: "read",
  status: "pending",
});
const finish = (toolCallId: string, output: string): SessionUpdate => ({
  sessionUpdate: "tool_call_update",
  toolCallId,
  status: "completed",
  content: [{ type: "content", content: { type: "text", text: output } }],
});

function stream() {
  const drawn: Piece[] = [];
  const s = new TranscriptStream((piece) => drawn.push(piece));
  return { s, text: () => drawn.map((p) => p.text).join("") };
}

const turnEnded = (ending: string, error?: string): SessionUpdate => ({
  sessionUpdate: "session_info_update",
  _meta: { verbatim: { turnEnded: { turnId: "turn_1", ending, ...(error ? { error } : {}) } } },
});

describe("TranscriptStream", () => {
  test("a message streams as it arrives, and ends on a line of its own once something follows it", () => {
    const { s, text } = stream();
    s.apply(say("m1", "Let me read "));
    expect(text()).toBe("Let me read ");
    s.apply(say("m1", "a.txt."));
    expect(text()).toBe("Let me read a.txt.");
    s.apply(announce("a"));
    expect(text()).toBe("Let me read a.txt.\n\n");
  });

  test("a card is drawn once, with what it ended with, when the next message starts", () => {
    const { s, text } = stream();
    s.apply(announce("a"));
    s.apply(finish("a", "hello"));
    expect(text()).toBe("");
    s.apply(say("m2", "Done."));
    expect(text()).toBe("[read] Read a.txt — completed\n    hello\n\nDone.");
  });

  test("the calls of one step are drawn in the order they were announced, whichever settled first", () => {
    const { s, text } = stream();
    s.apply(announce("a"));
    s.apply(announce("b"));
    s.apply(finish("b", "second"));
    s.apply(finish("a", "first"));
    s.flush();
    expect(text()).toBe("[read] Read a.txt — completed\n    first\n\n[read] Read b.txt — completed\n    second\n\n");
  });

  test("a plan is drawn where it arrived, after the part it followed", () => {
    const { s, text } = stream();
    s.apply(say("m1", "Planning."));
    s.apply({ sessionUpdate: "plan", entries: [{ content: "Do it", status: "pending", priority: "medium" }] });
    expect(text()).toBe("Planning.");
    s.apply(say("m2", "Next."));
    expect(text()).toBe("Planning.\n\nPlan:\n  [ ] Do it\n\nNext.");
  });

  test("a carriage return at the end of a chunk waits for the next one to say whether it ends a line", () => {
    const { s, text } = stream();
    s.apply(say("m1", "one\r"));
    expect(text()).toBe("one");
    s.apply(say("m1", "\ntwo"));
    s.flush();
    expect(text()).toBe("one\r\ntwo\n\n");
  });

  test("a prompt's blocks are drawn each as a whole block is, every line under its prefix", () => {
    const { s, text } = stream();
    s.apply({ sessionUpdate: "user_message_chunk", messageId: "u1", content: { type: "text", text: "see\r" } });
    s.apply({
      sessionUpdate: "user_message_chunk",
      messageId: "u1",
      content: { type: "resource_link", name: "a.txt", uri: "file:///a.txt" },
    });
    s.apply({
      sessionUpdate: "user_message_chunk",
      messageId: "u1",
      content: { type: "text", text: "\nand \x1b[2Jthis" },
    });
    s.flush();
    expect(text()).toBe("> see\\r[a.txt](file:///a.txt)\n> and \\x1b[2Jthis\n\n");
  });

  test("what streamed, piece by piece, is what the whole transcript renders (below its title)", () => {
    const updates: SessionUpdate[] = [
      { sessionUpdate: "user_message_chunk", messageId: "u1", content: { type: "text", text: "Go\nnow" } },
      { sessionUpdate: "session_info_update", title: "Go" },
      { sessionUpdate: "agent_thought_chunk", messageId: "t1", content: { type: "text", text: "Hmm.\nYes." } },
      say("m1", "Reading. "),
      announce("a"),
      finish("a", "x\ny"),
      say("m2", "All done."),
      { sessionUpdate: "usage_update", used: 10, size: 100 },
    ];
    const { s, text } = stream();
    const whole = new TranscriptRecorder();
    for (const u of updates) {
      s.apply(u);
      whole.apply(u);
    }
    s.close();
    expect(`# Go\n\n${text()}`).toBe(whole.render());
  });

  describe("how a turn ended", () => {
    test("a cancelled turn ends, after what it streamed, with a line that says so", () => {
      const { s, text } = stream();
      s.apply(say("m1", "Here is a lo"));
      s.apply(turnEnded("cancelled"));
      s.flush();
      expect(text()).toBe("Here is a lo\n\n(the turn was cancelled)\n\n");
    });

    test("a failed turn says why, on one line", () => {
      const { s, text } = stream();
      s.apply(turnEnded("failed", "the provider answered 500\nServer busy"));
      s.flush();
      expect(text()).toBe("(the turn failed: the provider answered 500 Server busy)\n\n");
    });

    test("a turn a crash cut off says it was interrupted, after its cards", () => {
      const { s, text } = stream();
      s.apply(announce("a"));
      s.apply(turnEnded("interrupted"));
      s.flush();
      expect(text()).toBe(
        "[read] Read a.txt — pending\n\n(the turn was interrupted: verbatim stopped while it ran)\n\n",
      );
    });

    test("a turn that ended as asked has no such line, and a title update draws none", () => {
      const { s, text } = stream();
      s.apply(say("m1", "Done."));
      s.apply({ sessionUpdate: "session_info_update", title: "A title" });
      s.flush();
      expect(text()).toBe("Done.\n\n");
    });
  });
});
