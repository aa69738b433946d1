/**
 * `verbatim show ID`: the transcript exactly as a client is shown it after reopening, on a
 * session with thinking, a plan, a read, an allowed edit, a refused edit and a command.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { TranscriptRecorder } from "../../src/view/transcript.ts";
import { connectProcess, load } from "../support/acp-session.ts";
import { runCli } from "../support/cli-process.ts";
import { mixedSession } from "../support/mixed-session.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";

let box: Sandbox;
let sessionId: string;
let shown: string;

beforeAll(async () => {
  box = sandbox("scripted/plain");
  ({ sessionId } = await mixedSession(box));
  shown = (await runCli(["show", sessionId], box.env)).stdout;
});

/** The lines of `shown` from the first one containing `from`, `count` of them. */
const linesFrom = (from: string, count: number) => {
  const lines = shown.split("\n");
  const start = lines.findIndex((l) => l.includes(from));
  return start < 0 ? [] : lines.slice(start, start + count);
};

describe("verbatim show", () => {
  test("is exactly what a client folding session/load in a fresh process draws", async () => {
    const client = await connectProcess(box.env);
    try {
      await load(client.ctx, sessionId, box.workspace);
    } finally {
      await client.close();
    }
    const transcript = new TranscriptRecorder();
    for (const n of client.client.notifications) transcript.apply(n.update);
    expect(shown).toBe(transcript.render());
  });

  test("shows thinking marked, under the prompt it answered", () => {
    expect(linesFrom("> Think first", 3)).toEqual([
      "> Think first",
      "",
      "  ~ The user wants a short answer. I'll keep it brief and clear.",
    ]);
  });

  test("draws each plan where it was updated, not only the last one at the end", () => {
    const first = shown.indexOf("  [~] Read the README");
    const second = shown.indexOf("  [x] Read the README");
    expect(first).toBeGreaterThan(shown.indexOf("> Plan it"));
    expect(second).toBeGreaterThan(first);
    expect(shown.indexOf("The plan is nearly done")).toBeGreaterThan(second);
    expect(shown.trimEnd().endsWith("tokens)")).toBe(true);
  });

  test("draws an edit as a unified diff with the question asked and the answer chosen", () => {
    const card = linesFrom("[edit] Edit", 12);
    expect(card[0]).toMatch(/^\[edit\] Edit \S+README\.md — completed @ /);
    expect(card.slice(1)).toEqual([
      "    ? asked: [Allow] | Always allow Edit for this session | Refuse | Always refuse Edit",
      expect.stringMatching(/^ {4}--- \S+README\.md$/),
      expect.stringMatching(/^ {4}\+\+\+ \S+README\.md$/),
      "    @@ -1,4 +1,4 @@",
      "     # Sample",
      "     ",
      "    -Line three.",
      "    +Line 3.",
      "     Line four.",
      "    Asked: no rule.",
      "    Permission: Allow (allowed once).",
    ]);
  });

  test("shows a refused edit failed, with the refusal chosen and why it did not run", () => {
    const card = linesFrom("— failed @", 14);
    expect(card[1]).toBe("    ? asked: Allow | Always allow Edit for this session | [Refuse] | Always refuse Edit");
    expect(card).toContain("    +Line 4.");
    expect(card).toContain("    Not run: refused by the user.");
  });

  test("shows a command's recorded output and exit code, never a terminal", () => {
    const card = linesFrom("[execute] echo hello", 9);
    expect(card[0]).toBe("[execute] echo hello; echo oops >&2 — completed");
    expect(card.slice(2, 8)).toEqual([
      "    ```",
      "    hello",
      "    oops",
      "    ```",
      "    Exit code 0",
      "    Asked: no rule.",
    ]);
    expect(shown).not.toContain("[terminal ");
  });
});
