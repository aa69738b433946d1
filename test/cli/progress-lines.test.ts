/** Progress on stderr while a turn runs: cards as they are announced and run, long calls, policy answers. */
import type { RequestPermissionRequest, SessionUpdate } from "@agentclientprotocol/sdk";
import { describe, expect, test } from "bun:test";
import { ProgressLines } from "../../src/cli/terminal/progress-lines.ts";

function printer() {
  const err: string[] = [];
  let now = 0;
  const p = new ProgressLines(
    (t) => err.push(t),
    () => now,
  );
  return { p, err, at: (seconds: number) => (now = seconds * 1000) };
}

const announced: SessionUpdate = {
  sessionUpdate: "tool_call",
  toolCallId: "call_1",
  title: "sleep 30",
  kind: "execute",
  status: "pending",
};
const started: SessionUpdate = { sessionUpdate: "tool_call_update", toolCallId: "call_1", status: "in_progress" };
const ended: SessionUpdate = { sessionUpdate: "tool_call_update", toolCallId: "call_1", status: "completed" };

describe("progress lines", () => {
  test("a card is reported when it is announced and when it starts running", () => {
    const { p, err } = printer();
    p.print(announced);
    p.print(started);
    p.print(ended);
    expect(err).toEqual(["… sleep 30\n", "▸ running: sleep 30\n"]);
  });

  test("a title's control characters and line breaks are printed visibly, on one line", () => {
    const { p, err } = printer();
    p.print({ ...announced, title: "echo \x1b]0;owned\x07\nforged" } as SessionUpdate);
    expect(err).toEqual(["… echo \\x1b]0;owned\\x07\\nforged\n"]);
  });

  test("a call running less than ten seconds reports nothing more", () => {
    const { p, err, at } = printer();
    p.print(announced);
    p.print(started);
    at(9.9);
    p.tick();
    p.print(ended);
    expect(err).toEqual(["… sleep 30\n", "▸ running: sleep 30\n"]);
  });

  test("a long call is reported every ten seconds, once each, and its duration when it ends", () => {
    const { p, err, at } = printer();
    p.print(announced);
    p.print(started);
    at(10.2);
    p.tick();
    at(12);
    p.tick();
    at(25);
    p.tick();
    p.print(ended);
    expect(err.slice(2)).toEqual([
      "… sleep 30: running for 10s\n",
      "… sleep 30: running for 20s\n",
      "… sleep 30: completed after 25s\n",
    ]);
  });

  test("a permission answered by the policy says which option and which policy", () => {
    const { p, err } = printer();
    const request: RequestPermissionRequest = {
      sessionId: "ses_1",
      toolCall: { toolCallId: "call_1", title: "Edit README.md" },
      options: [
        { optionId: "allow_once", name: "Allow", kind: "allow_once" },
        { optionId: "reject_once", name: "Refuse", kind: "reject_once" },
      ],
    };
    p.permission(request, { outcome: { outcome: "selected", optionId: "reject_once" } }, "none");
    expect(err).toEqual(["? Edit README.md: Refuse (reject_once) by --approve none\n"]);
  });

  describe("a command's output as it comes", () => {
    const output = (text: string): SessionUpdate & { sessionUpdate: "tool_call_update" } => ({
      sessionUpdate: "tool_call_update",
      toolCallId: "call_1",
      content: [
        { type: "content", content: { type: "text", text: `\`\`\`\n${text}${text.endsWith("\n") ? "" : "\n"}\`\`\`` } },
      ],
    });

    test("prints only the lines each progress update adds, and nothing of the final output", () => {
      const { p, err } = printer();
      p.print(announced);
      p.print(started);
      p.print(output("step1\n"));
      p.print(output("step1\nstep2\n"));
      p.print(output("step1\nstep2\n"));
      p.print({ ...ended, content: output("step1\nstep2\nstep3\n").content } as SessionUpdate);
      expect(err.slice(2)).toEqual(["  │ step1\n", "  │ step2\n"]);
    });

    test("follows a window that moved past lines already printed", () => {
      const { p, err } = printer();
      p.print(announced);
      p.print(started);
      p.print(output("a\nb\nc\n"));
      p.print(output("c\nd\ne\n"));
      expect(err.slice(2)).toEqual(["  │ a\n  │ b\n  │ c\n", "  │ d\n  │ e\n"]);
    });

    test("prints a command's output with its control characters escaped", () => {
      const { p, err } = printer();
      p.print(announced);
      p.print(started);
      p.print(output("\x1b]0;owned\x07done\n"));
      expect(err.slice(2)).toEqual(["  │ \\x1b]0;owned\\x07done\n"]);
    });

    test("takes no card text but a running command's fenced output (a permission answer's line is not output)", () => {
      const { p, err } = printer();
      p.print(announced);
      p.print({
        sessionUpdate: "tool_call_update",
        toolCallId: "call_1",
        content: [{ type: "content", content: { type: "text", text: "Permission: Allow (allowed once)." } }],
      });
      p.print(started);
      expect(err).toEqual(["… sleep 30\n", "▸ running: sleep 30\n"]);
    });
  });
});
