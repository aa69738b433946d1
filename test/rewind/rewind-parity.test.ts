/**
 * Parity after a rewind, through the real binary on both stores: the client drops what the rewind's
 * answer names; a fresh process's `session/load` (with the replay cache, and from the facts alone)
 * and `verbatim show` show exactly that view.
 */
import { describe, expect, test } from "bun:test";
import { prompt } from "../support/acp-session.ts";
import { dropRetracted, editPrompt, rewind } from "../support/rewind.ts";
import { answerBefore, messageIds } from "../support/view-cut.ts";
import { parity, texts } from "../parity/harness.ts";

describe.each(["sqlite", "postgres"] as const)(
  "on %s, after a rewind a reopened session shows what the client shows",
  (store) => {
    test("a rewind to a turn's last answer, then a turn", async () => {
      const r = await parity(
        "scripted/demo",
        async ({ ctx, client, sessionId }) => {
          await prompt(ctx, sessionId, "Overview");
          await prompt(ctx, sessionId, "Notes?");
          const view = client.view(sessionId);
          const answer = await rewind(ctx, { sessionId, toMessageId: answerBefore(view, 1) });
          dropRetracted(view, answer._meta.verbatim.retracted);
          await prompt(ctx, sessionId, "Something else");
        },
        { store },
      );
      expect(texts(r.live, "user")).toEqual(["Overview", "Something else"]);
      expect(r.differences).toEqual([]);
    });

    test("an edited prompt", async () => {
      const r = await parity(
        "scripted/demo",
        async ({ ctx, client, sessionId }) => {
          await prompt(ctx, sessionId, "Overview");
          await prompt(ctx, sessionId, "Notes?");
          const view = client.view(sessionId);
          const messageId = messageIds(view, "user")[1]!;
          const answer = await editPrompt(ctx, {
            sessionId,
            messageId,
            newContent: [{ type: "text", text: "Notes, please" }],
          });
          expect(answer.stopReason).toBe("end_turn");
          dropRetracted(view, answer._meta.verbatim.retracted);
        },
        { store },
      );
      expect(texts(r.live, "user")).toEqual(["Overview", "Notes, please"]);
      expect(r.differences).toEqual([]);
    });
  },
);
