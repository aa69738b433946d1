/** Running one tool directly, as the turn would, with a context a test controls. */
import type { ToolCallContent } from "@agentclientprotocol/sdk";
import { parseInput } from "../../src/core/tools/registry.ts";
import { commandEnvironment } from "../../src/core/tools/shell/command-env.ts";
import type { JobControl, Tool, ToolContext, ToolHost, ToolOutcome } from "../../src/core/tools/tool.ts";

export type RunOptions = {
  cwd: string;
  roots?: string[];
  host?: ToolHost;
  seenFiles?: Map<string, string>;
  signal?: AbortSignal;
  progress?: ToolCallContent[][];
  jobs?: JobControl;
};

/** Validates the input like the turn does, runs the tool, and records what it saw into `seenFiles`. */
export async function runTool(tool: Tool, raw: unknown, options: RunOptions): Promise<ToolOutcome> {
  const parsed = parseInput(tool, raw);
  if (!parsed.ok) throw new Error(parsed.message);
  const seenFiles = options.seenFiles ?? new Map<string, string>();
  const context: ToolContext = {
    sessionId: "ses_test",
    toolCallId: "call_test",
    cwd: options.cwd,
    roots: options.roots ?? [options.cwd],
    signal: options.signal ?? new AbortController().signal,
    host: options.host ?? {},
    commandEnv: commandEnvironment(process.env, { names: [], values: [] }),
    seenFiles,
    progress: (content) => options.progress?.push(content),
    ...(options.jobs ? { jobs: options.jobs } : {}),
  };
  const outcome = await tool.run(parsed.input, context);
  for (const seen of outcome.seen ?? []) seenFiles.set(seen.path, seen.sha256);
  return outcome;
}

/** The plain text a card shows. */
export const shown = (outcome: ToolOutcome) =>
  outcome.content.map((c) => (c.type === "content" && c.content.type === "text" ? c.content.text : "")).join("\n");
