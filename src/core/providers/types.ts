/**
 * The normalized provider event stream. Every adapter (Anthropic Messages, OpenAI Responses,
 * OpenAI-compatible Chat Completions, scripted) turns its wire stream into these events.
 *
 * Contract: `stream` never throws once called; failure is the final event (`error`), and
 * exactly one final event (`done` or `error`) ends every stream.
 */
import type { Money, TokenCounts, ToolSpec } from "../../journal/facts/index.ts";
import type { ThoughtLevel } from "../config/thought-levels.ts";
import type { ModelMessage } from "../../replay/model-messages.ts";

export type ProviderRequest = {
  model: string;
  system: string;
  messages: ModelMessage[];
  tools: ToolSpec[];
  thoughtLevel: ThoughtLevel;
  /** Where the session runs; only the scripted provider reads it. */
  cwd: string;
  /** Why the engine asks: a turn's step (the default) or a compaction summary. Only the scripted provider reads it. */
  purpose?: "turn" | "compaction";
};

export type ProviderStopReason = "end_turn" | "tool_use" | "max_tokens" | "refusal";

export type ProviderEvent =
  | { type: "thinking_delta"; text: string }
  | { type: "text_delta"; text: string }
  | { type: "tool_call_start"; index: number; providerCallId: string; name: string }
  | { type: "tool_call_delta"; index: number; json: string }
  | { type: "tool_call_end"; index: number }
  | ({ type: "usage" } & TokenCounts)
  | { type: "notice"; severity: "info" | "warning" | "error"; title: string; description?: string }
  | { type: "done"; stopReason: ProviderStopReason; continuity?: unknown }
  /** `retryAfterMs`: how long the provider asked to wait before a retry (e.g. `retry-after`). */
  | { type: "error"; message: string; retryable: boolean; retryAfterMs?: number };

export interface Provider {
  readonly id: string;
  /** The model's context window in tokens, where known. */
  contextWindow(model: string): number;
  /** The cost of a step's usage, where the model's price is known. */
  cost?(model: string, usage: TokenCounts): Money | undefined;
  stream(request: ProviderRequest, signal: AbortSignal): AsyncIterable<ProviderEvent>;
  /**
   * The provider's own count of a request's input tokens (Anthropic's count_tokens), where it
   * offers one; undefined when it could not count. Asked only near the compaction threshold.
   */
  countTokens?(request: ProviderRequest, signal: AbortSignal): Promise<number | undefined>;
}
