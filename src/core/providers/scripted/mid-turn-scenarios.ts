/**
 * Scripted scenarios for working with the agent mid-turn: steering (a user message that lands
 * between two steps reads, to the model, as the next prompt: `prompts[1]` answers it) and plan
 * approval (a plan presented with ExitPlanMode; what follows depends on the answer).
 */
import { join } from "node:path";
import { call, done, say, type Scenario, type ScriptContext, type Step } from "./script.ts";

const notes = (ctx: ScriptContext) => join(ctx.cwd, "NOTES.md");

const writeNotes: Step = (ctx) => [
  ...say("I'll write the notes file. "),
  ...call(0, "call_write", "Write", { file_path: notes(ctx), content: "# Notes\n\nWritten by verbatim.\n" }),
  ...done("tool_use"),
];

/** The plan the plan-approval scenario presents: Markdown, as Claude Code's ExitPlanMode carries it. */
export const SCRIPTED_PLAN = "## Plan\n\n1. Read the README.\n2. Write NOTES.md with a summary.\n";

const approved = (ctx: ScriptContext) => ctx.results[0] !== undefined && !ctx.results[0].isError;

export const midTurnScenarios: Record<string, Scenario> = {
  steer: {
    description:
      "Writes NOTES.md (asking first), then answers; a steering text that lands mid-turn is answered in the next step.",
    prompts: [
      [writeNotes, () => [...say("NOTES.md is written."), ...done()]],
      [(ctx) => [...say(`Understood: ${ctx.prompt}`), ...done()]],
    ],
  },
  "plan-approval": {
    description:
      "In plan mode: reads the README, presents a plan with ExitPlanMode; once approved, writes NOTES.md; refused, keeps planning.",
    prompts: [
      [
        (ctx) => [
          ...say("Let me look at the project first. "),
          ...call(0, "call_read", "Read", { file_path: join(ctx.cwd, "README.md") }),
          ...done("tool_use"),
        ],
        () => [
          ...say("Here is my plan. "),
          ...call(0, "call_plan", "ExitPlanMode", { plan: SCRIPTED_PLAN }),
          ...done("tool_use"),
        ],
        (ctx) =>
          approved(ctx) ? writeNotes(ctx) : [...say("Understood: I'll keep planning. What should change?"), ...done()],
        () => [...say("Done: NOTES.md holds the summary."), ...done()],
      ],
    ],
  },
};
