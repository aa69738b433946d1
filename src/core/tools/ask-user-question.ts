/**
 * AskUserQuestion, with Claude Code's name and input shape: a few questions, each with a short
 * header, two to four options (a label and a description) and whether several may be chosen.
 * It asks through the client's form (ACP elicitation) when the client can answer one; otherwise
 * it fails with a result that tells the model to go on without asking.
 */
import { z } from "zod";
import { failed, type AskedAnswer, type QuestionForm, type Tool, type ToolOutcome } from "./tool.ts";

const input = z.lazy(() => {
  const option = z.object({
    label: z.string().min(1).describe("The option as the user sees it (1-5 words)"),
    description: z.string().describe("What choosing this option means"),
  });
  const question = z.object({
    question: z.string().min(1).describe("The complete question, ending with a question mark"),
    header: z.string().min(1).describe('A very short label for the question (max 12 chars), e.g. "Auth method"'),
    options: z
      .array(option)
      .min(2)
      .max(4)
      .describe("The choices (2-4); the user may also type an answer of their own")
      // An answer names its option by label: two options with one label could not be told apart.
      .superRefine((options, ctx) => {
        options.forEach((o, i) => {
          if (options.findIndex((p) => p.label === o.label) < i)
            ctx.addIssue({
              code: "custom",
              path: [i, "label"],
              message: `the label ${JSON.stringify(o.label)} is already another option's: each option of a question needs a label of its own`,
            });
        });
      }),
    multiSelect: z.boolean().describe("Whether the user may choose several options"),
  });
  return z.object({ questions: z.array(question).min(1).max(4).describe("The questions to ask (1-4)") });
});
type Input = z.infer<typeof input>;
type Question = Input["questions"][number];

const NO_CLIENT =
  "The user cannot be asked here: this editor does not answer questions (it has no ACP elicitation form). " +
  "Do not call AskUserQuestion again in this session: go on with your best judgement and say which assumptions you made, " +
  "or put the questions in your reply.";

/** The form the questions make: per question a choice (one, or several) and a free-text field beside it. */
function questionForm(questions: Question[]): QuestionForm {
  const properties: Record<string, unknown> = {};
  questions.forEach((q, i) => {
    const choices = q.options.map((o) => ({
      const: o.label,
      title: o.label,
      ...(o.description ? { description: o.description } : {}),
    }));
    properties[`q${i + 1}`] = q.multiSelect
      ? { type: "array", title: q.header, description: q.question, items: { anyOf: choices } }
      : { type: "string", title: q.header, description: q.question, oneOf: choices };
    properties[`q${i + 1}_other`] = {
      type: "string",
      title: `${q.header} (other)`,
      description: "An answer of your own, if no option fits",
    };
  });
  // A client may show the form by its message alone: it names every question asked.
  const message =
    questions.length === 1
      ? (questions[0] as Question).question
      : `Please answer these questions: ${questions.map((q) => q.question).join(" ")}`;
  return { message, requestedSchema: { type: "object", properties } };
}

/** What the user chose for question `i` (and typed beside it), as one text; undefined when nothing. */
function answerOf(content: Record<string, unknown>, q: Question, i: number): string | undefined {
  const picked = content[`q${i + 1}`];
  const picks = (Array.isArray(picked) ? picked : picked === undefined ? [] : [picked])
    .map(String)
    .filter((p) => p !== "");
  const other = typeof content[`q${i + 1}_other`] === "string" ? (content[`q${i + 1}_other`] as string).trim() : "";
  const all = other ? [...picks, other] : picks;
  if (all.length === 0) return undefined;
  return q.multiSelect ? all.join(", ") : all.join(" — ");
}

function outcomeOf(questions: Question[], answer: AskedAnswer): ToolOutcome {
  switch (answer.action) {
    case "accept": {
      const lines = questions.map(
        (q, i) => `"${q.question}" = ${JSON.stringify(answerOf(answer.content, q, i) ?? "(no answer)")}`,
      );
      return {
        status: "completed",
        content: [],
        rawOutput: {
          answers: Object.fromEntries(questions.map((q, i) => [q.question, answerOf(answer.content, q, i) ?? null])),
        },
        result: { text: `The user answered: ${lines.join("; ")}. Go on with these answers in mind.`, isError: false },
      };
    }
    case "decline":
      return {
        status: "completed",
        content: [],
        rawOutput: { declined: true },
        result: {
          text:
            (answer.error === undefined
              ? "The user declined to answer these questions."
              : `The questions count as not answered: ${answer.error}.`) +
            " Go on without the answers (say what you assume), or ask in your reply.",
          isError: false,
        },
      };
    case "cancel":
      if (answer.cancelledBy === "turn")
        return failed("The turn was cancelled while the question was open; it was not answered.");
      if (answer.error !== undefined)
        return failed(
          `The question could not be asked (${answer.error}). Go on without asking, or put the questions in your reply.`,
        );
      return failed(
        "The user dismissed the questions without answering. Go on without the answers, or ask in your reply.",
      );
  }
}

export const askUserQuestionTool: Tool<Input> = {
  name: "AskUserQuestion",
  description:
    "Asks the user multiple-choice questions while you work: to gather preferences, clarify an ambiguous " +
    "instruction, or let them choose between approaches. Each question has a short header, 2-4 options and " +
    "whether several may be chosen; the user may always type an answer of their own instead.",
  input,
  kind: "other",
  access: "read",
  title: (i) => `Ask: ${i.questions.map((q) => q.header).join(", ")}`,
  locations: () => [],
  async run(i, context) {
    if (!context.ask) return failed(NO_CLIENT, "Not asked: this client cannot answer questions.");
    return outcomeOf(i.questions, await context.ask(questionForm(i.questions)));
  },
};
