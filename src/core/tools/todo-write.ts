import { z } from "zod";
import type { Tool } from "./tool.ts";

const input = z.lazy(() => {
  const todo = z.object({
    content: z.string().min(1).describe("What needs to be done, imperative form"),
    status: z.enum(["pending", "in_progress", "completed"]),
    activeForm: z.string().min(1).describe("The present-continuous form shown while it is in progress"),
  });
  return z.object({ todos: z.array(todo).describe("The complete, updated todo list") });
});
type Input = z.infer<typeof input>;

/** Keeps the session's plan: every call sends the whole list, shown as an ACP `plan`. */
export const todoWriteTool: Tool<Input> = {
  name: "TodoWrite",
  description:
    "Creates and updates the task list for the current work. Send the complete list every time; " +
    "mark exactly one task in_progress while working on it and completed as soon as it is done.",
  input,
  kind: "think",
  access: "read",
  title: (i) => `Update plan (${i.todos.length} task${i.todos.length === 1 ? "" : "s"})`,
  locations: () => [],
  async run(i) {
    const entries = i.todos.map((t) => ({ content: t.content, status: t.status, priority: "medium" as const }));
    const done = i.todos.filter((t) => t.status === "completed").length;
    return {
      status: "completed",
      content: [],
      plan: entries,
      result: { text: `Plan updated: ${i.todos.length} tasks, ${done} completed.`, isError: false },
    };
  },
};
