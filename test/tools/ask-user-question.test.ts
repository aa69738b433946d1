/**
 * AskUserQuestion asks through ACP elicitation when the client can answer forms: the question,
 * its options and the answer are journaled and shown on the card, a reload shows them without
 * asking again, a client that cannot answer gets a result the model can act on, and a cancel
 * while the question is open ends the turn cleanly.
 */
import { describe, expect, test } from "bun:test";
import * as acp from "@agentclientprotocol/sdk";
import type { CreateElicitationRequest } from "@agentclientprotocol/sdk";
import { textOf } from "../support/cards.ts";
import { ClientServices } from "../support/client-services.ts";
import { connectProcess, newSession, prompt, until } from "../support/acp-session.ts";
import { cards, parity, texts } from "../parity/harness.ts";
import { sandbox } from "../support/workspace.ts";
import { databaseQuestion } from "../support/questions.ts";

const questions = {
  questions: [
    databaseQuestion,
    {
      question: "Which checks should run in CI?",
      header: "Checks",
      options: [
        { label: "Lint", description: "Style" },
        { label: "Tests", description: "Behaviour" },
        { label: "Bench", description: "Speed" },
      ],
      multiSelect: true,
    },
  ],
};
const ask = `AskUserQuestion ${JSON.stringify(questions)}`;
type Form = {
  properties: Record<
    string,
    { type: string; title?: string; oneOf?: { const: string }[]; items?: { anyOf: { const: string }[] } }
  >;
};

describe("AskUserQuestion", () => {
  test("asks with a form, gives the model the answers, and a reload shows the question and answer without asking again", async () => {
    const services = new ClientServices({
      answer: () => ({ action: "accept", content: { q1: "SQLite", q2: ["Lint", "Tests"], q2_other: "Typecheck" } }),
    });
    const r = await parity(
      "scripted/call",
      async ({ ctx, sessionId }) => {
        await prompt(ctx, sessionId, ask);
      },
      { services },
    );
    expect(r.differences).toEqual([]);
    expect(r.reloadAsked).toBe(0);
    const [request] = services.questions as (CreateElicitationRequest & { requestedSchema: Form })[];
    // The form's message names every question, and the card's title every header: a client may show either alone.
    expect(request).toMatchObject({
      mode: "form",
      sessionId: r.sessionId,
      message: "Please answer these questions: Which database should the service use? Which checks should run in CI?",
    });
    expect(request?.requestedSchema.properties.q1?.oneOf?.map((o) => o.const)).toEqual(["Postgres", "SQLite"]);
    expect(request?.requestedSchema.properties.q2?.items?.anyOf.map((o) => o.const)).toEqual([
      "Lint",
      "Tests",
      "Bench",
    ]);
    const [card] = cards(r.live);
    expect(card).toMatchObject({ title: "Ask: Database, Checks", status: "completed" });
    expect((request as { toolCallId?: string }).toolCallId).toBe(card!.toolCallId);
    expect(textOf(card?.content)).toContain(
      "Question: Please answer these questions: Which database should the service use? Which checks should run in CI?",
    );
    expect(textOf(card?.content)).toContain(
      "Answered: Database: SQLite; Checks: Lint, Tests; Checks (other): Typecheck.",
    );
    expect(texts(r.live, "agent").at(-1)).toContain(
      '"Which database should the service use?" = "SQLite"; "Which checks should run in CI?" = "Lint, Tests, Typecheck"',
    );
  });

  test("a declined form is an answer the model can go on from", async () => {
    const services = new ClientServices({ answer: () => ({ action: "decline" }) });
    const r = await parity(
      "scripted/call",
      async ({ ctx, sessionId }) => {
        await prompt(ctx, sessionId, ask);
      },
      { services },
    );
    expect(r.differences).toEqual([]);
    expect(textOf(cards(r.live)[0]?.content)).toContain("Not answered: the user declined.");
    expect(texts(r.live, "agent").at(-1)).toContain("The user declined to answer these questions.");
  });

  test("fails with a result the model can act on when the client cannot answer forms", async () => {
    const r = await parity("scripted/call", async ({ ctx, sessionId }) => {
      await prompt(ctx, sessionId, ask);
    });
    expect(r.differences).toEqual([]);
    expect(cards(r.live)[0]?.status).toBe("failed");
    expect(texts(r.live, "agent").at(-1)).toContain("The tool failed: The user cannot be asked here");
  });

  test("a cancel while the question is open ends the turn cancelled, the question marked cancelled by the turn", async () => {
    const services = new ClientServices({ answer: () => new Promise(() => {}) });
    const r = await parity(
      "scripted/call",
      async ({ ctx, sessionId }) => {
        const turn = prompt(ctx, sessionId, ask);
        await until(() => services.questions.length > 0, "the question");
        await ctx.notify(acp.methods.agent.session.cancel, { sessionId });
        expect((await turn).stopReason).toBe("cancelled");
      },
      { services },
    );
    expect(r.differences).toEqual([]);
    const [card] = cards(r.live);
    expect(card?.status).toBe("failed");
    expect(textOf(card?.content)).toContain("Not answered: the turn was cancelled.");
  });

  test("is offered to the model with Claude Code's name and input shape", async () => {
    const box = sandbox("scripted/plain");
    const c = await connectProcess(box.env);
    try {
      const { sessionId } = await newSession(c.ctx, box.workspace);
      await prompt(c.ctx, sessionId, "Hello");
    } finally {
      await c.close();
    }
    const { runCli } = await import("../support/cli-process.ts");
    const sessions = (await runCli(["sessions", "--json"], box.env)).stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { sessionId: string });
    const { exportedFacts } = await import("../support/exported-facts.ts");
    const started = (await exportedFacts(box.env, sessions[0]!.sessionId))[0] as unknown as {
      tools: {
        name: string;
        inputSchema: {
          properties: { questions: { items: { properties: Record<string, unknown>; required: string[] } } };
        };
      }[];
    };
    const tool = started.tools.find((t) => t.name === "AskUserQuestion");
    const item = tool?.inputSchema.properties.questions.items;
    expect(Object.keys(item?.properties ?? {}).sort()).toEqual(["header", "multiSelect", "options", "question"]);
    expect(item?.required.sort()).toEqual(["header", "multiSelect", "options", "question"]);
  });
});
