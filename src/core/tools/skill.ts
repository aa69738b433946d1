import { z } from "zod";
import { textContent } from "../../journal/facts/display-shapes.ts";
import { expandCommand } from "../commands/project-commands.ts";
import { failed, type Tool } from "./tool.ts";

const input = z.lazy(() =>
  z.object({
    skill: z.string().min(1).describe('The name of a skill listed in the system prompt, e.g. "pdf"'),
    args: z.string().optional().describe("Arguments for the skill, if it takes any"),
  }),
);
type Input = z.infer<typeof input>;

/**
 * Loads a skill (Claude Code's `Skill` tool and input): the skill's instructions, with its
 * arguments put in, are the result the model reads. Offered only to a session that has skills the
 * model may load; a skill marked `disable-model-invocation` is refused. What the model was given
 * is the call's recorded result.
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
    return {
      status: "completed",
      content: [textContent(`Loaded the skill ${skill.name} (${skill.path})`)],
      result: { text, isError: false },
    };
  },
};
