/**
 * The scripted scenarios. Each defines what its k-th prompt does (cycling), and every turn ends
 * `end_turn` unless the scenario is about another stop reason. `demo` exercises every fact kind;
 * `tour` is what `verbatim demo` plays.
 */
import { join } from "node:path";
import { call, done, fail, say, think, type Scenario, type ScriptContext, type Step } from "./script.ts";
import { toolScenarios } from "./tool-scenarios.ts";
import { windowScenarios } from "./window-scenarios.ts";
import { midTurnScenarios } from "./mid-turn-scenarios.ts";
import { jobScenarios } from "./job-scenarios.ts";
import { tourScenario } from "./tour-scenario.ts";

const firstResult = (ctx: ScriptContext) => ctx.results[0];

const lineCount = (ctx: ScriptContext) => {
  const r = firstResult(ctx);
  if (!r || r.isError) return 0;
  return r.text.split("\n").filter((l) => /^\s*\d+\t/.test(l)).length;
};

const readme = (ctx: ScriptContext) => join(ctx.cwd, "README.md");

const readStep: Step = (ctx) => [
  ...say("I'll read the project README first. "),
  ...call(0, "call_read", "Read", { file_path: readme(ctx) }),
  ...done("tool_use"),
];

const summarizeRead: Step = (ctx) => {
  const r = firstResult(ctx);
  if (!r || r.isError) return [...say(`I couldn't read it: ${r?.text ?? "no result"}`), ...done()];
  return [...say(`README.md has ${lineCount(ctx)} lines. It describes the project and how to run it.`), ...done()];
};

const missingStep: Step = (ctx) => [
  ...say("Let me check the notes file. "),
  ...call(0, "call_read", "Read", { file_path: join(ctx.cwd, "NOTES-that-do-not-exist.md") }),
  ...done("tool_use"),
];

const afterMissing: Step = (ctx) => [
  ...say(firstResult(ctx)?.isError ? "That file does not exist, so there are no notes yet." : "Found the notes."),
  ...done(),
];

const todos = (statuses: ("pending" | "in_progress" | "completed")[]) => ({
  todos: [
    { content: "Read the README", activeForm: "Reading the README", status: statuses[0] },
    { content: "Summarize the project", activeForm: "Summarizing the project", status: statuses[1] },
    { content: "Suggest next steps", activeForm: "Suggesting next steps", status: statuses[2] },
  ],
});

const planStep =
  (statuses: Parameters<typeof todos>[0]): Step =>
  () => [...call(0, "call_plan", "TodoWrite", todos(statuses)), ...done("tool_use")];

const longAnswer =
  "Here is a long answer that streams slowly so that it can be cancelled part of the way through. " +
  "It goes on about the structure of the project, its journal, its replay, and the reasons for each choice. ".repeat(6);

export const scenarios: Record<string, Scenario> = {
  attachments: {
    description: "Says what the prompt holds: its images and its text (attached resources arrive as text).",
    prompts: [
      [
        (ctx) => [
          ...say(
            ctx.images.length
              ? `I see ${ctx.images.length} image${ctx.images.length === 1 ? "" : "s"}: ${ctx.images.map((i) => `${i.mimeType} (${i.bytes} bytes)`).join(", ")}. `
              : "I see no image. ",
          ),
          ...say(`Your message has ${ctx.prompt.length} characters of text.`),
          ...done(),
        ],
      ],
    ],
  },
  compaction: {
    description: "Long answers in a 1,000-token context window, so the session compacts before its third prompt.",
    contextWindow: 1000,
    prompts: [
      [
        (ctx) => [
          ...say(
            `I see ${ctx.promptIndex + 1} prompt${ctx.promptIndex === 0 ? "" : "s"} in my context` +
              `${ctx.summarised ? ", this one opened by a summary of earlier turns" : ""}. `,
          ),
          ...say("Here is a long answer that fills the context window. ".repeat(38)),
          ...done(),
        ],
      ],
    ],
  },
  echo: {
    description: "Repeats what it was given as the prompt (for slash commands, the command's text).",
    prompts: [[(ctx) => [...say(`You said: ${ctx.prompt}`), ...done()]]],
  },
  plain: {
    description: "Answers in plain text.",
    prompts: [
      [
        () => [
          ...say("Hello! I'm verbatim's scripted model. Every word you see here is recorded as it streams."),
          ...done(),
        ],
      ],
    ],
  },
  thinking: {
    description: "Thinks, then answers.",
    prompts: [
      [
        () => [
          ...think("The user wants a short answer. I'll keep it brief and clear."),
          ...say("Here is a brief and clear answer."),
          ...done(),
        ],
      ],
    ],
  },
  tool: {
    description: "Reads README.md with a located tool call, then summarizes it.",
    prompts: [[readStep, summarizeRead]],
  },
  "tool-failure": {
    description: "Reads a file that does not exist; the call fails and the model explains.",
    prompts: [[missingStep, afterMissing]],
  },
  plan: {
    description: "Writes a plan, updates it, and answers.",
    prompts: [
      [
        planStep(["in_progress", "pending", "pending"]),
        planStep(["completed", "completed", "in_progress"]),
        () => [...say("The plan is nearly done: the last step is to suggest what comes next."), ...done()],
      ],
    ],
  },
  slow: {
    description: "Thinks and answers slowly (for cancelling part of the way through).",
    prompts: [
      [() => [...think("Let me think about this carefully before answering. ", 5), ...say(longAnswer, 15), ...done()]],
    ],
  },
  hesitant: {
    description:
      "Says nothing for three seconds, then answers (for what a terminal shows while the model is waited for).",
    prompts: [
      [() => [{ type: "pause", ms: 3000 }, ...say("Sorry to keep you waiting: here is the answer."), ...done()]],
    ],
  },
  error: {
    description: "Fails part of the way through an answer.",
    prompts: [
      [() => [...say("Starting the answer, and then "), ...fail("the scripted provider dropped the connection")]],
    ],
  },
  "max-tokens": {
    description: "Stops at the output token limit.",
    prompts: [[() => [...say("This answer is cut off because it reached the"), ...done("max_tokens")]]],
  },
  refusal: {
    description: "Refuses.",
    prompts: [[() => [...say("I can't help with that request."), ...done("refusal")]]],
  },
  loop: {
    description: "Calls a tool at every step, forever (for the step limit).",
    prompts: [[readStep]],
  },
  "duplicate-ids": {
    description: "Returns two tool calls with the same provider id (an invalid step).",
    prompts: [
      [
        (ctx) => [
          ...say("Reading two files. "),
          ...call(0, "call_dup", "Read", { file_path: readme(ctx) }),
          ...call(1, "call_dup", "Read", { file_path: readme(ctx) }),
          ...done("tool_use"),
        ],
      ],
    ],
  },
  demo: {
    description: "The demo: thinking, a located read, a plan, a failing call, and answers.",
    prompts: [
      [
        (ctx) => [
          ...think("The user wants an overview. I should read the README, then plan the summary."),
          ...readStep(ctx),
        ],
        planStep(["completed", "in_progress", "pending"]),
        () => [
          ...say("The README describes the project and how to run it. "),
          ...call(0, "call_plan", "TodoWrite", todos(["completed", "completed", "completed"])),
          ...done("tool_use"),
        ],
        () => [...say("Done: I read the README, summarized it, and the plan is complete."), ...done()],
      ],
      [missingStep, afterMissing],
    ],
  },
  tour: tourScenario,
  ...toolScenarios,
  ...midTurnScenarios,
  ...windowScenarios,
  ...jobScenarios,
};

/** The step a request is at, or a closing answer if the scenario has no more steps. */
export function scriptedStep(scenario: Scenario, ctx: ScriptContext): Step {
  const prompt = scenario.prompts[ctx.promptIndex % scenario.prompts.length] ?? [];
  const looping = prompt.length === 1 && (scenario.loops === true || scenario === scenarios.loop);
  return prompt[looping ? 0 : ctx.stepIndex] ?? (() => [...say("That's all for this request."), ...done()]);
}
