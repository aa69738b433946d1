/**
 * The offline models act on what the user wrote. A compaction summary opens the model's next user
 * message (the real wires carry it as a part of its own): the scripted provider takes the user's
 * own text as the prompt, never the summary. And a refused call is explained as the user's refusal.
 */
import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, test } from "bun:test";
import { choose } from "../../src/client/view-client.ts";
import { prompt } from "../support/acp-session.ts";
import { textOf } from "../support/cards.ts";
import { cards, parity, texts } from "../parity/harness.ts";

describe("the scripted provider's prompt after a compaction", () => {
  test("scripted/echo repeats the user's own text, not the summary", async () => {
    const r = await parity("scripted/echo", async ({ ctx, sessionId }) => {
      await prompt(ctx, sessionId, "First question");
      expect((await prompt(ctx, sessionId, "/compact")).stopReason).toBe("end_turn");
      await prompt(ctx, sessionId, "Second question");
    });
    expect(texts(r.live, "agent").at(-1)).toBe("You said: Second question");
    expect(r.differences).toEqual([]);
  });

  test("scripted/command in bypass mode runs the user's command, not the summary", async () => {
    const r = await parity("scripted/command", async ({ ctx, sessionId }) => {
      await ctx.request(acp.methods.agent.session.setMode, { sessionId, modeId: "bypassPermissions" });
      await prompt(ctx, sessionId, "echo first");
      await prompt(ctx, sessionId, "/compact");
      expect((await prompt(ctx, sessionId, "echo second")).stopReason).toBe("end_turn");
    });
    const commands = cards(r.live).map((c) => (c.rawInput as { command?: string }).command);
    expect(commands).toEqual(["echo first", "echo second"]);
    expect(textOf(cards(r.live)[1]?.content)).toContain("second");
    expect(texts(r.live, "agent").at(-1)).toBe("The command succeeded.");
    expect(r.differences).toEqual([]);
  });

  test("scripted/compaction still knows its prompt was opened by a summary", async () => {
    const r = await parity("scripted/compaction", async ({ ctx, sessionId }) => {
      for (const text of ["First question", "Second question", "Third question"]) await prompt(ctx, sessionId, text);
    });
    expect(texts(r.live, "agent").at(-1)).toStartWith(
      "I see 1 prompt in my context, this one opened by a summary of earlier turns.",
    );
  });
});

describe("scripted/edit after the user refused the edit", () => {
  test("says the user refused it, not that the workspace lacks the right README", async () => {
    const r = await parity(
      "scripted/edit",
      async ({ ctx, sessionId }) => {
        expect((await prompt(ctx, sessionId, "Change the third line")).stopReason).toBe("end_turn");
      },
      { policy: choose("reject_once") },
    );
    const [, edit] = cards(r.live);
    expect(edit?.status).toBe("failed");
    expect(textOf(edit?.content)).toContain("Not run: refused by the user");
    const answer = texts(r.live, "agent").at(-1);
    expect(answer).toContain("you refused");
    expect(answer).not.toContain("README.md in the working directory");
    expect(r.differences).toEqual([]);
  });
});
