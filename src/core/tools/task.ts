import { z } from "zod";
import { type SubagentResult, subagentKinds } from "./subagent-launcher.ts";
import { failed, type Tool, type ToolOutcome } from "./tool.ts";
import { defined } from "../../shared/defined.ts";

const input = z.lazy(() =>
  z.object({
    description: z.string().min(1).describe("A short (3-5 word) description of the task"),
    prompt: z.string().min(1).describe("The task for the subagent to perform, with all the context it needs"),
    subagent_type: z.string().min(1).describe("The type of subagent to use for this task"),
  }),
);
type Input = z.infer<typeof input>;

const titleOf = (i: Input) => `Task: ${i.description}`;

/**
 * Delegates a task to a subagent that works in its own child session, with its own context, and
 * reports back. Claude Code's `Task` shape. The card shows the subagent's progress as it works;
 * the model is told the subagent's final report. The call itself needs no permission: each call
 * the subagent makes is gated on its own.
 */
export const taskTool: Tool<Input> = {
  name: "Task",
  description: [
    "Launches a subagent to handle a complex, multi-step task on its own, in a fresh context.",
    "The subagent cannot see this conversation: give it everything it needs in the prompt, and say",
    "what it should report back. Its final report is returned to you; the user does not see it",
    "unless you pass it on.",
    "",
    "Available subagent types (custom ones, when the user keeps any, are listed in the system prompt):",
    ...subagentKinds.map((k) => `- ${k.name}: ${k.description}`),
  ].join("\n"),
  input,
  kind: "other",
  access: "read",
  title: titleOf,
  locations: () => [],
  async run(i, ctx) {
    if (!ctx.subagents) return failed("Subagents cannot start other subagents; do the task yourself.");
    const kinds = (await ctx.subagents.kinds()).map((k) => k.name);
    if (!kinds.includes(i.subagent_type)) {
      return failed(`Unknown subagent type "${i.subagent_type}". Available: ${kinds.join(", ")}.`);
    }
    const result = await ctx.subagents.run({
      parentToolCallId: ctx.toolCallId,
      title: titleOf(i),
      subagentType: i.subagent_type,
      description: i.description,
      prompt: i.prompt,
      signal: ctx.signal,
    });
    return subagentOutcome(result);
  },
};

/** A subagent's report as its call's outcome (Task's, and a forked skill's). */
export function subagentOutcome(result: SubagentResult): ToolOutcome {
  return {
    status: result.ok ? "completed" : "failed",
    content: result.content,
    rawOutput: { sessionId: result.sessionId },
    result: { text: result.text, isError: !result.ok },
    ...defined({ cost: result.cost }),
  };
}
