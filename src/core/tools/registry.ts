/** The set of tools a session offers, and turning a model's raw arguments into valid input. */
import { z } from "zod";
import type { ToolSpec } from "../../journal/facts/index.ts";
import { askUserQuestionTool } from "./ask-user-question.ts";
import { exitPlanModeTool } from "./exit-plan-mode.ts";
import { bashTool } from "./bash.ts";
import { editTool } from "./edit.ts";
import { globTool } from "./glob.ts";
import { grepTool } from "./grep.ts";
import { notebookEditTool } from "./notebook-edit.ts";
import { readTool } from "./read.ts";
import { skillTool } from "./skill.ts";
import { taskTool } from "./task.ts";
import { TASK_OUTPUT_ALIASES, taskOutputTool } from "./task-output.ts";
import { TASK_STOP_ALIASES, taskStopTool } from "./task-stop.ts";
import { todoWriteTool } from "./todo-write.ts";
import type { Tool } from "./tool.ts";
import { webFetchTool } from "./web-fetch.ts";
import { writeTool } from "./write.ts";

export class ToolRegistry {
  readonly #tools = new Map<string, Tool>();

  constructor(tools: Tool[]) {
    for (const tool of tools) this.#tools.set(tool.name, tool);
  }

  /** A tool by name, or by an older name Claude Code gave it (ALIASES) when this registry has the tool. */
  get(name: string): Tool | undefined {
    const tool = this.#tools.get(name);
    if (tool) return tool;
    const alias = ALIASES.get(name);
    if (!alias || !this.#tools.has(alias.offeredWith)) return undefined;
    return alias.tool;
  }

  /** Every tool, in the order given. */
  all(): Tool[] {
    return [...this.#tools.values()];
  }

  /** A registry with these tools added after this one's (a tool of the same name replaces none). */
  with(more: Tool[]): ToolRegistry {
    return new ToolRegistry([...this.all(), ...more.filter((t) => !this.#tools.has(t.name))]);
  }

  /** A registry without the named tools. */
  without(names: string[]): ToolRegistry {
    return new ToolRegistry(this.all().filter((t) => !names.includes(t.name)));
  }

  /** The definitions the model is given (journaled when a session starts). */
  specs(): ToolSpec[] {
    return [...this.#tools.values()].map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema:
        tool.inputJsonSchema ??
        (z.toJSONSchema(tool.input, { target: "draft-7", io: "input" }) as Record<string, unknown>),
    }));
  }
}

/**
 * Names a model (or a hook) may use that are not offered: Claude Code's earlier names for its
 * background-job tools. Each is accepted where the tool it stands with (`offeredWith`) is.
 */
const ALIASES = new Map<string, { tool: Tool; offeredWith: string }>([
  ...TASK_STOP_ALIASES.map((name) => [name, { tool: taskStopTool as Tool, offeredWith: "TaskStop" }] as const),
  ...[...TASK_OUTPUT_ALIASES, "TaskOutput"].map(
    (name) => [name, { tool: taskOutputTool as Tool, offeredWith: "TaskStop" }] as const,
  ),
]);

/** The built-in tools, with Claude Code's names and input shapes. */
export function defaultTools(): Tool[] {
  const tools = [
    readTool,
    writeTool,
    editTool,
    notebookEditTool,
    globTool,
    grepTool,
    bashTool,
    taskStopTool,
    todoWriteTool,
    webFetchTool,
    taskTool,
    askUserQuestionTool,
    exitPlanModeTool,
    skillTool,
  ];
  return tools as Tool[];
}

export type ParsedInput = { ok: true; input: unknown } | { ok: false; message: string };

/**
 * Validates a model's arguments. Optional fields sent as `null` (OpenAI strict mode) count as
 * absent. Errors are written for the model to fix its call.
 */
export function parseInput(tool: Tool, raw: unknown): ParsedInput {
  const cleaned =
    raw && typeof raw === "object" && !Array.isArray(raw)
      ? Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== null))
      : raw;
  const parsed = tool.input.safeParse(cleaned);
  if (parsed.success) return { ok: true, input: parsed.data };
  const problems = parsed.error.issues
    .slice(0, 5)
    .map((issue) => `- ${issue.path.length ? issue.path.join(".") : "(input)"}: ${issue.message}`)
    .join("\n");
  return {
    ok: false,
    message: `Invalid arguments for ${tool.name}:\n${problems}\nFix the arguments to match the tool's input schema and call it again.`,
  };
}
