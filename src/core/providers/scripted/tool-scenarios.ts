/**
 * Scripted scenarios for the tools and permissions: edits, writes, commands, searches and
 * fetches. Each prompt's steps are fixed; scenarios that act on what the user asked (a command
 * to run, a URL to fetch) take it from the prompt text, so the same prompt always does the same.
 */
import { join } from "node:path";
import { call, done, say, type Scenario, type ScriptContext, type Step } from "./script.ts";

const readme = (ctx: ScriptContext) => join(ctx.cwd, "README.md");

/** What the edit scenario needs of the folder it runs in (verbatim demo's workspace and the tests' have it). */
const EDIT_NEEDS =
  'It needs a README.md in the working directory with the lines "Line three." and "Line four.", as verbatim\'s test workspaces have.';
const result = (ctx: ScriptContext) => ctx.results[0];
const firstLine = (text: string) => text.split("\n")[0] ?? "";

const reported =
  (ok: string, notOk: string): Step =>
  (ctx) => {
    const r = result(ctx);
    return [...say(r && !r.isError ? ok : `${notOk} ${firstLine(r?.text ?? "There was no result.")}`), ...done()];
  };

/**
 * After an edit: done, or why not, read from the result as a model reads it. A call that never ran
 * (the user refused it, a rule or the mode did, the turn was cancelled) says so; only the edit's
 * own failure points at the workspace the scenario needs.
 */
const editReported =
  (ok: string): Step =>
  (ctx) => {
    const r = result(ctx);
    if (r && !r.isError) return [...say(ok), ...done()];
    const text = r?.text ?? "There was no result.";
    if (/^The user refused permission/.test(text))
      return [...say("The edit did not happen: you refused it, so README.md is unchanged."), ...done()];
    if (/did not run|was refused|was blocked/.test(text))
      return [...say(`The edit did not happen: ${firstLine(text)}`), ...done()];
    return [...say(`The edit did not happen (${EDIT_NEEDS}): ${firstLine(text)}`), ...done()];
  };

const editStep =
  (oldText: string, newText: string, intro: string): Step =>
  (ctx) => [
    ...say(intro),
    ...call(0, "call_edit", "Edit", { file_path: readme(ctx), old_string: oldText, new_string: newText }),
    ...done("tool_use"),
  ];

/** The prompt `<tool name> <JSON arguments>`, split. */
const namedCall = (prompt: string) => {
  const match = /^\s*(\S+)\s*([\s\S]*)$/.exec(prompt);
  const name = match?.[1] ?? "";
  let args: unknown = {};
  try {
    args = match?.[2]?.trim() ? JSON.parse(match[2]) : {};
  } catch {
    args = match?.[2] ?? "";
  }
  return { name, args };
};

/** The subagent's side of the `subagent` scenario: it reads the README (and runs a command if asked). */
const childSteps = (ctx: ScriptContext): Step => {
  const readLines = (c: ScriptContext) => (result(c)?.text ?? "").split("\n").filter((l) => /^\s*\d+\t/.test(l)).length;
  const steps: Step[] = [
    () => [
      ...say("Reading the README. "),
      ...call(0, "call_child_read", "Read", { file_path: readme(ctx) }),
      ...done("tool_use"),
    ],
  ];
  if (/command/i.test(ctx.prompt)) {
    steps.push(
      (c) => [
        ...say(`It has ${readLines(c)} lines; checking with a command. `),
        ...call(0, "call_child_bash", "Bash", { command: "wc -l README.md", description: "Count lines" }),
        ...done("tool_use"),
      ],
      (c) => {
        const r = result(c);
        return [
          ...say(
            r && !r.isError
              ? `The command says: ${firstLine(r.text).trim()}`
              : `The command did not run: ${firstLine(r?.text ?? "no result")}`,
          ),
          ...done(),
        ];
      },
    );
  } else {
    steps.push((c) => [...say(`README.md has ${readLines(c)} lines.`), ...done()]);
  }
  return steps[ctx.stepIndex] ?? (() => [...say("That's all."), ...done()]);
};

export const toolScenarios: Record<string, Scenario> = {
  "read-path": {
    description: "Reads the file whose absolute path is the prompt's text.",
    prompts: [
      [
        (ctx) => [
          ...say("Reading it. "),
          ...call(0, "call_read", "Read", { file_path: ctx.prompt.trim() }),
          ...done("tool_use"),
        ],
        reported("I read it.", "I could not read it:"),
      ],
    ],
  },
  subagent: {
    description:
      "Delegates the prompt to a subagent (Task), which reads the README (and runs a command if the prompt asks), then reports.",
    prompts: [
      [
        (ctx) => {
          if (!ctx.tools.includes("Task")) return childSteps(ctx)(ctx);
          return [
            ...say("I'll ask a subagent. "),
            ...call(0, "call_task", "Task", {
              description: "Inspect the README",
              prompt: ctx.prompt,
              subagent_type: "general-purpose",
            }),
            ...done("tool_use"),
          ];
        },
        (ctx) => {
          if (!ctx.tools.includes("Task")) return childSteps(ctx)(ctx);
          const r = result(ctx);
          return [
            ...say(
              r && !r.isError ? `The subagent reported: ${r.text}` : `The subagent failed: ${r?.text ?? "no result"}`,
            ),
            ...done(),
          ];
        },
        (ctx) => childSteps(ctx)(ctx),
      ],
    ],
  },
  call: {
    description:
      "Calls the tool the prompt names, with the JSON arguments that follow its name, and reports the result.",
    prompts: [
      [
        (ctx) => {
          const { name, args } = namedCall(ctx.prompt);
          if (!ctx.tools.includes(name))
            return [...say(`I have no tool named ${name}. I have: ${ctx.tools.join(", ")}.`), ...done()];
          return [...call(0, "call_named", name, args), ...done("tool_use")];
        },
        (ctx) => {
          const r = result(ctx);
          return [
            ...say(r && !r.isError ? `The tool answered: ${r.text}` : `The tool failed: ${r?.text ?? "no result"}`),
            ...done(),
          ];
        },
      ],
    ],
  },
  edit: {
    description: `Reads README.md and edits its third line; a second prompt edits the fourth line. ${EDIT_NEEDS}`,
    prompts: [
      [
        (ctx) => [
          ...say("Let me read the README first. "),
          ...call(0, "call_read", "Read", { file_path: readme(ctx) }),
          ...done("tool_use"),
        ],
        editStep("Line three.", "Line 3.", "Now I'll change the third line. "),
        editReported('Done: the third line now reads "Line 3."'),
      ],
      [
        editStep("Line four.", "Line 4.", "Changing the fourth line too. "),
        editReported('Done: the fourth line now reads "Line 4."'),
      ],
    ],
  },
  write: {
    description: "Writes a new NOTES.md file.",
    prompts: [
      [
        (ctx) => [
          ...say("I'll write the notes file. "),
          ...call(0, "call_write", "Write", {
            file_path: join(ctx.cwd, "NOTES.md"),
            content: "# Notes\n\nWritten by verbatim.\n",
          }),
          ...done("tool_use"),
        ],
        reported("NOTES.md is written.", "The file was not written:"),
      ],
    ],
  },
  command: {
    description: "Runs the prompt's text as a Bash command and reports how it went.",
    prompts: [
      [
        (ctx) => [
          ...say("Running it. "),
          ...call(0, "call_bash", "Bash", { command: ctx.prompt, description: "Run the requested command" }),
          ...done("tool_use"),
        ],
        reported("The command succeeded.", "The command did not succeed:"),
      ],
    ],
  },
  search: {
    description: 'Finds the Markdown files, then searches them for "Line".',
    prompts: [
      [
        () => [...call(0, "call_glob", "Glob", { pattern: "**/*.md" }), ...done("tool_use")],
        () => [
          ...call(0, "call_grep", "Grep", { pattern: "Line", output_mode: "content", glob: "*.md" }),
          ...done("tool_use"),
        ],
        reported("Found the lines.", "The search failed:"),
      ],
    ],
  },
  fetch: {
    description: "Fetches the URL given as the prompt and reports it.",
    prompts: [
      [
        (ctx) => [
          ...call(0, "call_fetch", "WebFetch", { url: ctx.prompt.trim(), prompt: "What is this page about?" }),
          ...done("tool_use"),
        ],
        reported("I fetched the page.", "The fetch failed:"),
      ],
    ],
  },
};
