/**
 * A tool is defined once: its name, description and input schema (the model's view), how its
 * card is shown (kind, title, locations, a preview), and how it runs. What a card showed is
 * recorded when the call is announced, so reload never calls any of this.
 */
import type { PlanEntry, ToolCallContent, ToolCallLocation, ToolKind } from "@agentclientprotocol/sdk";
import type { z } from "zod";
import type { ModelResult } from "../../journal/facts/index.ts";

/** What the client can do for tools, when it advertised the capability. */
export interface ToolHost {
  readTextFile?(path: string, options: { line?: number; limit?: number }): Promise<string>;
  writeTextFile?(path: string, content: string): Promise<void>;
}

export type ToolContext = {
  sessionId: string;
  toolCallId: string;
  cwd: string;
  /** Directories file tools may touch: the cwd and the session's additional directories. */
  roots: string[];
  signal: AbortSignal;
  host: ToolHost;
  /** Shows new card content while the call runs (recorded before it is shown). */
  progress(content: ToolCallContent[]): void;
};

export type ToolOutcome = {
  status: "completed" | "failed";
  /** What the card shows. */
  content: ToolCallContent[];
  rawOutput?: unknown;
  /** What the model is told. */
  result: ModelResult;
  /** A new plan, for tools that drive ACP `plan` updates. */
  plan?: PlanEntry[];
};

export interface Tool<I = unknown> {
  readonly name: string;
  readonly description: string;
  readonly input: z.ZodType<I>;
  readonly kind: ToolKind;
  /** True for tools that never change anything (allowed in `plan` mode, never asked about). */
  readonly readOnly: boolean;
  title(input: I): string;
  locations(input: I): ToolCallLocation[];
  /** Content shown when the call is announced (e.g. an edit's diff). */
  preview?(input: I, context: Pick<ToolContext, "cwd" | "roots" | "host">): Promise<ToolCallContent[]>;
  /** Runs the call. Never throws: a failure is an outcome with status `failed`. */
  run(input: I, context: ToolContext): Promise<ToolOutcome>;
}

export const failed = (text: string, display = text): ToolOutcome => ({
  status: "failed",
  content: [{ type: "content", content: { type: "text", text: display } }],
  result: { text, isError: true },
});
