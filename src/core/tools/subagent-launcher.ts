/**
 * What the `Task` tool needs from the engine: running a subagent in a child session. The session
 * runtime provides it to the calls of a top-level session (a subagent cannot start another).
 */
import type { ToolCallContent } from "@agentclientprotocol/sdk";
import type { Money } from "../../journal/facts/index.ts";
import type { UserCommand } from "../commands/command-files.ts";

/**
 * A type of subagent: its system prompt, and (for a custom one) the only tools it is given and
 * the model it runs on (`model` as its file writes it: config/model-alias.ts; none: the parent's).
 */
export type SubagentKind = {
  name: string;
  description: string;
  systemPrompt: string;
  tools?: string[];
  model?: string;
};

export type SubagentRequest = {
  /** The parent's `Task` call, whose card shows the subagent's progress. */
  parentToolCallId: string;
  /** The `Task` card's own title: a subagent's permission question borrows the card's title while it is open. */
  title: string;
  subagentType: string;
  description: string;
  prompt: string;
  signal: AbortSignal;
  /** A forked skill (`context: fork`) the subagent runs: it acts in the subagent's turn (commands/activation.ts). */
  command?: UserCommand;
};

export type SubagentResult = {
  sessionId: string;
  ok: boolean;
  /** The subagent's final answer (or why it has none): what the parent's model is told. */
  text: string;
  /** The card's content when the subagent ended. */
  content: ToolCallContent[];
  /** The child session's cost, where its model calls were priced. */
  cost?: Money;
};

export interface SubagentLauncher {
  /** The built-in types and the session's custom ones (read from the agent files when asked). */
  kinds(): Promise<SubagentKind[]>;
  /** Runs a subagent to the end of its turn. Never throws. */
  run(request: SubagentRequest): Promise<SubagentResult>;
}

export const subagentKinds: SubagentKind[] = [
  {
    name: "general-purpose",
    description: "Researches questions, searches and reads code, and carries out multi-step tasks on its own.",
    systemPrompt: [
      "You are a subagent of verbatim: the main agent gave you one task. Work on it on your own with",
      "the tools you have; the user cannot answer questions. When you are done, reply with a concise",
      "final report: it is the only thing the main agent will see of your work.",
    ].join("\n"),
  },
];
