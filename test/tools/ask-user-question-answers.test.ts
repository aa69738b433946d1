/**
 * AskUserQuestion takes only answers that fit the form it asked: a field the form does not have, a
 * value of another type, or a choice that is not an option counts as not answered (as a declined
 * question does, saying why), and the card and the model are told the same answer. Two options of
 * one question with the same label are refused when the tool is called.
 */
import { describe, expect, test } from "bun:test";
import { textOf } from "../support/cards.ts";
import { ClientServices } from "../support/client-services.ts";
import { prompt } from "../support/acp-session.ts";
import { cards, parity, texts } from "../parity/harness.ts";
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
      ],
      multiSelect: true,
    },
  ],
};

/** Asks `questions`, the client answering the form with `content`; the live view, checked against a reload. */
async function answered(content: Record<string, unknown>, asked: unknown = questions) {
  const services = new ClientServices({ answer: () => ({ action: "accept", content }) });
  const r = await parity(
    "scripted/call",
    async ({ ctx, sessionId }) => {
      await prompt(ctx, sessionId, `AskUserQuestion ${JSON.stringify(asked)}`);
    },
    { services },
  );
  expect(r.differences).toEqual([]);
  const [card] = cards(r.live);
  return { card, cardText: textOf(card?.content), modelText: texts(r.live, "agent").at(-1) ?? "", services };
}

describe("AskUserQuestion answers", () => {
  test("an answer that is an object where the form asks a choice counts as not answered, on the card and for the model", async () => {
    const { card, cardText, modelText } = await answered({ q1: { evil: "Postgres" } });
    expect(card?.status).toBe("completed");
    expect(cardText).toContain("Not answered: the answer did not fit the form (Database: not a text).");
    expect(modelText).toContain(
      "The questions count as not answered: the answer did not fit the form (Database: not a text).",
    );
    expect(modelText).not.toContain("[object Object]");
    expect(cardText).not.toContain("[object Object]");
  });

  test("a choice that is not an option of a multi-select counts as not answered", async () => {
    const { cardText, modelText } = await answered({ q1: "SQLite", q2: ["Lint", "Deploy"] });
    expect(cardText).toContain(
      "Not answered: the answer did not fit the form (Checks: a choice that is not one of its options).",
    );
    expect(modelText).toContain("The questions count as not answered");
    expect(modelText).not.toContain("Deploy");
    expect(cardText).not.toContain("Deploy");
  });

  test("a number typed in an answer-of-your-own field counts as not answered: the card does not show what the model is not told", async () => {
    const { cardText, modelText } = await answered({ q1: "SQLite", q1_other: 42 });
    expect(cardText).toContain("Not answered: the answer did not fit the form (Database (other): not a text).");
    expect(cardText).not.toContain("42");
    expect(modelText).toContain("The questions count as not answered");
  });

  test("a field the form does not have counts as not answered", async () => {
    const { cardText, modelText } = await answered({ q1: "SQLite", q9: "Postgres" });
    expect(cardText).toContain("Not answered: the answer did not fit the form (it has a field the form does not).");
    expect(modelText).toContain("The questions count as not answered");
  });

  test("the card and the model are told the same answer: typed text trimmed, a blank one left out", async () => {
    const { cardText, modelText } = await answered({
      q1: "SQLite",
      q1_other: "  MySQL  ",
      q2: ["Lint"],
      q2_other: "   ",
    });
    expect(cardText).toContain("Answered: Database: SQLite; Database (other): MySQL; Checks: Lint.");
    expect(modelText).toContain(
      '"Which database should the service use?" = "SQLite — MySQL"; "Which checks should run in CI?" = "Lint"',
    );
  });

  test("two options of one question with the same label are refused when the tool is called, and nothing is asked", async () => {
    const twice = {
      questions: [
        {
          question: "Which database?",
          header: "Database",
          options: [
            { label: "Postgres", description: "The team runs it" },
            { label: "Postgres", description: "A managed one" },
          ],
          multiSelect: false,
        },
      ],
    };
    const { card, modelText, services } = await answered({ q1: "Postgres" }, twice);
    expect(services.questions).toEqual([]);
    expect(card?.status).toBe("failed");
    expect(modelText).toContain("Invalid arguments for AskUserQuestion");
    expect(modelText).toContain(
      'questions.0.options.1.label: the label "Postgres" is already another option\'s: each option of a question needs a label of its own',
    );
  });
});
