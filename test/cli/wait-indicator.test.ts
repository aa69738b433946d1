/** While the model is waited for, a status line at a terminal says for how long; the screen erases it before drawing anything else. */
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { describe, expect, test } from "bun:test";
import { Screen } from "../../src/cli/terminal/screen.ts";
import { WaitIndicator } from "../../src/cli/terminal/wait-indicator.ts";

function indicator() {
  const shown: (string | undefined)[] = [];
  let now = 0;
  const w = new WaitIndicator(
    (text) => shown.push(text),
    () => now,
  );
  return { w, shown, at: (seconds: number) => (now = seconds * 1000) };
}

const say: SessionUpdate = {
  sessionUpdate: "agent_message_chunk",
  messageId: "m1",
  content: { type: "text", text: "Hi" },
};
const call = (status?: "completed"): SessionUpdate =>
  status
    ? { sessionUpdate: "tool_call_update", toolCallId: "c1", status }
    : { sessionUpdate: "tool_call", toolCallId: "c1", title: "ls", kind: "execute", status: "pending" };

describe("the wait for the model", () => {
  test("is shown after a second, each second, until the model says something", () => {
    const { w, shown, at } = indicator();
    w.turnStarted();
    at(0.5);
    w.tick();
    expect(shown).toEqual([]);
    at(1.2);
    w.tick();
    at(2.4);
    w.tick();
    w.saw(say);
    at(5);
    w.tick();
    expect(shown).toEqual(["… waiting for the model: 1s", "… waiting for the model: 2s", undefined]);
  });

  test("is not shown while a call runs, and again once the step's calls have all ended", () => {
    const { w, shown, at } = indicator();
    w.turnStarted();
    w.saw(call());
    at(3);
    w.tick();
    w.saw(call("completed"));
    at(4.5);
    w.tick();
    expect(shown).toEqual([undefined, "… waiting for the model: 1s"]);
  });

  test("ends with the turn", () => {
    const { w, shown, at } = indicator();
    w.turnStarted();
    w.turnEnded();
    at(3);
    w.tick();
    expect(shown).toEqual([undefined]);
  });
});

describe("the screen's status line", () => {
  const screen = (status: boolean) => {
    const out: string[] = [];
    const s = new Screen(
      (t) => out.push(t),
      (t) => out.push(t),
      { transcript: true, colour: false, shared: true, status },
    );
    return { s, text: () => out.join("") };
  };

  test("is drawn on its own line and erased before the transcript goes on, with no line end drawn twice", () => {
    const { s, text } = screen(true);
    s.transcript.apply({ sessionUpdate: "user_message_chunk", messageId: "u1", content: { type: "text", text: "go" } });
    s.status("… waiting for the model: 1s");
    s.status("… waiting for the model: 2s");
    s.transcript.apply(say);
    s.transcript.flush();
    expect(text()).toBe(
      "> go\n\r\x1b[2K… waiting for the model: 1s\r\x1b[2K… waiting for the model: 2s\r\x1b[2K\nHi\n\n",
    );
  });

  test("is never drawn where stderr is not a terminal", () => {
    const { s, text } = screen(false);
    s.status("… waiting for the model: 1s");
    expect(text()).toBe("");
  });
});
