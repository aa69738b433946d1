/** The transcript draws plans and mode changes where they arrived. */
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { expect, test } from "bun:test";
import { renderTranscript, TranscriptRecorder } from "../../src/view/transcript.ts";

const say = (messageId: string, text: string): SessionUpdate => ({
  sessionUpdate: "agent_message_chunk",
  messageId,
  content: { type: "text", text },
});
const plan = (status: "pending" | "completed"): SessionUpdate => ({
  sessionUpdate: "plan",
  entries: [{ content: "Do it", status, priority: "medium" }],
});

test("plans and mode changes are drawn between the messages they came between", () => {
  const recorder = new TranscriptRecorder();
  for (const u of [
    say("m1", "First."),
    plan("pending"),
    { sessionUpdate: "current_mode_update", currentModeId: "plan" } as SessionUpdate,
    say("m2", "Second."),
    plan("completed"),
  ]) {
    recorder.apply(u);
  }
  expect(recorder.render()).toBe(
    [
      "First.",
      "",
      "Plan:",
      "  [ ] Do it",
      "",
      "(mode: plan)",
      "",
      "Second.",
      "",
      "Plan:",
      "  [x] Do it",
      "",
      "(mode plan)",
      "",
    ].join("\n"),
  );
});

test("without recorded marks, the latest plan closes the transcript", () => {
  const recorder = new TranscriptRecorder();
  for (const u of [say("m1", "First."), plan("pending"), say("m2", "Second."), plan("completed")]) recorder.apply(u);
  expect(renderTranscript(recorder.view)).toBe(
    ["First.", "", "Second.", "", "Plan:", "  [x] Do it", "", ""].join("\n"),
  );
});
