/**
 * The scenario `verbatim demo` plays: in two prompts, what a session records. The first thinks,
 * reads the README, keeps a plan, edits the README (a diff, asked for), runs a command (asked for)
 * and answers; the second answers slowly, for the demo to cancel part of the way through.
 */
import { join } from "node:path";
import { call, done, say, think, type Scenario, type ScriptContext, type Step } from "./script.ts";

const readme = (ctx: ScriptContext) => join(ctx.cwd, "README.md");
const result = (ctx: ScriptContext) => ctx.results[0];
const firstLine = (text: string) => (text.split("\n")[0] ?? "").trim();

const plan = (statuses: ("pending" | "in_progress" | "completed")[]) => ({
  todos: [
    { content: "Read the README", activeForm: "Reading the README", status: statuses[0] },
    { content: "Give it a title that says what it is", activeForm: "Retitling the README", status: statuses[1] },
    { content: "Count its lines", activeForm: "Counting its lines", status: statuses[2] },
  ],
});

/** The heading the demo's README starts with (src/cli/demo.ts writes it), and what the edit makes of it. */
export const TOUR_HEADING = "# Sample project";
export const TOUR_NEW_HEADING = "# Sample project: a tiny app for the verbatim demo";

const tidy: Step[] = [
  (ctx) => [
    ...think("The user wants the README tidied and measured. I'll read it, plan, retitle it, then count its lines."),
    ...say("I'll read the README first. "),
    ...call(0, "call_read", "Read", { file_path: readme(ctx) }),
    ...done("tool_use"),
  ],
  () => [...call(0, "call_plan", "TodoWrite", plan(["completed", "in_progress", "pending"])), ...done("tool_use")],
  (ctx) => [
    ...say("Its title says nothing about the project; I'll make it say what it is. "),
    ...call(0, "call_edit", "Edit", { file_path: readme(ctx), old_string: TOUR_HEADING, new_string: TOUR_NEW_HEADING }),
    ...done("tool_use"),
  ],
  () => [
    ...say("Now its size, with a command. "),
    ...call(0, "call_bash", "Bash", { command: "wc -l README.md", description: "Count the README's lines" }),
    ...done("tool_use"),
  ],
  (ctx) => {
    const r = result(ctx);
    return [
      ...say(r && !r.isError ? `The command says: ${firstLine(r.text)}. ` : "The command did not run. "),
      ...call(0, "call_plan", "TodoWrite", plan(["completed", "completed", "completed"])),
      ...done("tool_use"),
    ];
  },
  () => [...say("Done: the README has a title that says what the project is."), ...done()],
];

const explainSlowly: Step[] = [
  () => [
    ...think("A long explanation, then. ", 10),
    ...say(
      "Here is the whole project in detail, streamed slowly enough to be cancelled part of the way through. " +
        "It starts with the README, goes on to the source folder and its layout, then the tests and how they run. ".repeat(
          4,
        ),
      25,
    ),
    ...done(),
  ],
];

export const tourScenario: Scenario = {
  description:
    "verbatim demo's tour: thinking, a read, a plan, an edit and a command (both asked), then a slow answer.",
  prompts: [tidy, explainSlowly],
};
