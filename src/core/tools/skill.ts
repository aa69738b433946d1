import { z } from "zod";
import { textContent } from "../../journal/facts/display-shapes.ts";
import { expandCommand } from "../commands/project-commands.ts";
import { failed, type Tool, type ToolContext, type ToolOutcome } from "./tool.ts";
import type { UserCommand } from "../commands/command-files.ts";
import { subagentOutcome } from "./task.ts";

const input = z.lazy(() =>
  z.object({
    skill: z.string().min(1).describe('The name of a skill listed in the system prompt, e.g. "pdf"'),
    args: z.string().optional().describe("Arguments for the skill, if it takes any"),
  }),
);
type Input = z.infer<typeof input>;

/**
 * Loads a skill (Claude Code's `Skill` tool and input): the skill's instructions, with its
 * arguments put in, are the result the model reads, and the skill acts for the rest of the turn
 * (its allowed-tools, model, effort, hooks: commands/activation.ts). A skill with `context: fork`
 * runs instead in a subagent of its `agent` type (general-purpose by default) with its
 * instructions as the task, and the subagent's report is the result. Offered only to a session
 * that has skills the model may load; a skill marked `disable-model-invocation` is refused. What
 * the model was given is the call's recorded result.
 */
export const skillTool: Tool<Input> = {
  name: "Skill",
  description: [
    "Loads a skill: instructions and files the user keeps for a kind of task. The skills you may",
    "load are listed in the system prompt with what each is for; when a task matches one, load it",
    "first and follow what it says. Files it mentions are in its folder.",
  ].join("\n"),
  input,
  kind: "read",
  access: "read",
  title: (i) => `Skill: ${i.skill}`,
  locations: () => [],
  async run(i, ctx) {
    const skills = (await ctx.skills?.()) ?? [];
    const skill = skills.find((s) => s.name === i.skill);
    const offered = skills.filter((s) => s.modelInvocable).map((s) => s.name);
    if (!skill) return failed(`There is no skill "${i.skill}". Skills: ${offered.join(", ") || "none"}.`);
    if (!skill.modelInvocable)
      return failed(`The skill "${i.skill}" is for the user to run (/${i.skill}); it cannot be loaded by the model.`);
    const text = `Base directory for this skill: ${skill.dir ?? ""}\n\n${expandCommand(skill, i.args ?? "", { cwd: ctx.cwd, sessionId: ctx.sessionId })}`;
    if (skill.fork) return forked(skill, skill.fork.agent ?? "general-purpose", text, ctx);
    await ctx.activate?.(skill);
    return {
      status: "completed",
      content: [textContent(`Loaded the skill ${skill.name} (${skill.path})`)],
      result: { text, isError: false },
    };
  },
};

/** A `context: fork` skill: run by a subagent of type `agent`, in which the skill acts; its report is the result. */
async function forked(skill: UserCommand, agent: string, text: string, ctx: ToolContext): Promise<ToolOutcome> {
  if (!ctx.subagents)
    return failed(`The skill "${skill.name}" runs in a subagent, and a subagent cannot start another.`);
  const kinds = (await ctx.subagents.kinds()).map((k) => k.name);
  if (!kinds.includes(agent))
    return failed(
      `The skill "${skill.name}" runs in a subagent of type "${agent}", which does not exist. Types: ${kinds.join(", ")}.`,
    );
  const result = await ctx.subagents.run({
    parentToolCallId: ctx.toolCallId,
    title: `Skill: ${skill.name}`,
    subagentType: agent,
    description: `the skill ${skill.name}`,
    prompt: text,
    signal: ctx.signal,
    command: skill,
  });
  return subagentOutcome(result);
}
