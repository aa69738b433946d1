/**
 * What the model is given for each built-in tool: a plain JSON object schema, whole (the input
 * schemas are built on first use, and that must not show in what is given), naming each field.
 */
import { describe, expect, test } from "bun:test";
import { defaultTools, ToolRegistry } from "../../src/core/tools/registry.ts";

const fields: Record<string, string[]> = {
  Read: ["file_path", "offset", "limit", "pages"],
  Write: ["file_path", "content"],
  Edit: ["file_path", "old_string", "new_string", "replace_all"],
  NotebookEdit: ["notebook_path", "cell_id", "new_source", "cell_type", "edit_mode"],
  Glob: ["pattern", "path"],
  Grep: [
    "pattern",
    "path",
    "glob",
    "type",
    "output_mode",
    "-i",
    "-n",
    "-A",
    "-B",
    "-C",
    "context",
    "head_limit",
    "offset",
    "multiline",
  ],
  Bash: ["command", "timeout", "description", "run_in_background", "dangerouslyDisableSandbox"],
  TaskStop: ["task_id", "shell_id"],
  TodoWrite: ["todos"],
  WebFetch: ["url", "prompt"],
  Task: ["description", "prompt", "subagent_type"],
  AskUserQuestion: ["questions"],
  ExitPlanMode: ["plan"],
  Skill: ["skill", "args"],
};

describe("the built-in tools' specs", () => {
  test("each is a whole JSON object schema with the tool's fields, and no references", () => {
    const specs = new ToolRegistry(defaultTools()).specs();
    expect(specs.map((s) => s.name).sort()).toEqual(Object.keys(fields).sort());
    for (const spec of specs) {
      expect(spec.inputSchema.type).toBe("object");
      expect(Object.keys(spec.inputSchema.properties as Record<string, unknown>)).toEqual(fields[spec.name] ?? []);
      expect(JSON.stringify(spec.inputSchema)).not.toContain("$ref");
      expect(JSON.stringify(spec.inputSchema)).not.toContain("$defs");
    }
  });
});
