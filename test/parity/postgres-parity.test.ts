/**
 * Parity with the journal on PostgreSQL: what a client folded live equals what a fresh process
 * shows after `session/load`, the journal on the test run's server (the scenarios of
 * core-scenarios.test.ts that exercise each way a fact reaches the journal: streamed chunks in
 * groups, turns after the first, tool calls, a cancel, a subagent's child session).
 * VERBATIM_TEST_STORE=postgres runs every scenario of the harness this way (the few tests that
 * also read the SQLite file directly then fail: they are not store-neutral).
 */
import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, test } from "bun:test";
import { prompt, until } from "../support/acp-session.ts";
import { cards, parity, texts } from "./harness.ts";

const onPostgres = { store: "postgres" } as const;

describe("with the journal on PostgreSQL, a reopened session shows exactly what was shown live", () => {
  test("thinking then answer", async () => {
    const r = await parity(
      "scripted/thinking",
      async ({ ctx, sessionId }) => {
        await prompt(ctx, sessionId, "Think first");
      },
      onPostgres,
    );
    expect(texts(r.live, "agent")).toEqual(["Here is a brief and clear answer."]);
    expect(r.box.env.VERBATIM_JOURNAL).toStartWith("postgres://");
    expect(r.differences).toEqual([]);
  });

  test("a long streamed answer and a second turn", async () => {
    const r = await parity(
      "scripted/demo",
      async ({ ctx, sessionId }) => {
        await prompt(ctx, sessionId, "Overview");
        await prompt(ctx, sessionId, "Notes?");
      },
      onPostgres,
    );
    expect(texts(r.live, "user")).toEqual(["Overview", "Notes?"]);
    expect(r.differences).toEqual([]);
  });

  test("tool call with locations", async () => {
    const r = await parity(
      "scripted/tool",
      async ({ ctx, sessionId }) => {
        await prompt(ctx, sessionId, "Read the README");
      },
      onPostgres,
    );
    expect(cards(r.live)[0]).toMatchObject({ name: "Read", status: "completed" });
    expect(r.differences).toEqual([]);
  });

  test("cancel in the middle of an answer keeps what was streamed", async () => {
    const r = await parity(
      "scripted/slow",
      async ({ ctx, client, sessionId }) => {
        const turn = prompt(ctx, sessionId, "Tell me everything");
        await until(
          () => client.notifications.filter((n) => n.update.sessionUpdate === "agent_message_chunk").length >= 3,
          "a few answer chunks",
        );
        await ctx.notify(acp.methods.agent.session.cancel, { sessionId });
        expect((await turn).stopReason).toBe("cancelled");
      },
      onPostgres,
    );
    expect(r.differences).toEqual([]);
  });

  test("a subagent's nested tool call, from its child session", async () => {
    const r = await parity(
      "scripted/subagent",
      async ({ ctx, sessionId }) => {
        expect((await prompt(ctx, sessionId, "Look at the README")).stopReason).toBe("end_turn");
      },
      onPostgres,
    );
    expect(cards(r.live).map((c) => c.name)).toContain("Task");
    expect(r.differences).toEqual([]);
  });
});
