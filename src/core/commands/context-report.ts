/**
 * `/context`: what fills the model's window, in tokens: the system prompt (and the instruction
 * files it holds), the tool definitions, the conversation's messages and its tool results. Counts
 * are estimated from the text (about four characters a token, as the providers' own rule of thumb
 * goes); the provider's own count after the last step, when recorded, is shown beside them. What
 * the user was shown is recorded as a notice, so a reload shows the same numbers.
 */
import type { FactOf, ToolSpec } from "../../journal/facts/index.ts";
import type { ModelMessage } from "../../replay/model-messages.ts";
import type { SessionStateFold } from "../../replay/state.ts";
import { mintId } from "../ids.ts";

/** Characters per token, for text the provider has not counted. */
const CHARS_PER_TOKEN = 4;
const tokens = (chars: number): number => Math.ceil(chars / CHARS_PER_TOKEN);

function messageChars(messages: readonly ModelMessage[]): { user: number; assistant: number; results: number } {
  const sum = { user: 0, assistant: 0, results: 0 };
  for (const m of messages) {
    if (m.role === "user")
      for (const part of m.content) sum.user += part.type === "text" ? part.text.length : part.data.length;
    else if (m.role === "assistant")
      sum.assistant += m.text.length + m.calls.reduce((n, c) => n + c.name.length + JSON.stringify(c.input).length, 0);
    else sum.results += m.results.reduce((n, r) => n + r.text.length, 0);
  }
  return sum;
}

/** The notice `/context` records: its title sums up, its description has one line per part. */
export function contextReport(
  state: SessionStateFold,
  messages: readonly ModelMessage[],
  tools: readonly ToolSpec[],
): FactOf<"notice_shown"> {
  const sources = state.context?.sources ?? [];
  const sourceChars = sources.reduce((n, s) => n + s.bytes, 0);
  const system = tokens(state.systemPrompt.length);
  const toolTokens = tokens(JSON.stringify(tools).length);
  const m = messageChars(messages);
  const total = system + toolTokens + tokens(m.user) + tokens(m.assistant) + tokens(m.results);
  const size = state.contextUsage?.size;
  const share = (n: number) => (size ? ` (${((100 * n) / size).toFixed(1)}%)` : "");
  const lines = [
    `system prompt: about ${system} tokens${share(system)}, of which ${sources.length} instruction file${sources.length === 1 ? "" : "s"} about ${tokens(sourceChars)}`,
    ...sources.map((s) => `  ${s.path}: about ${tokens(s.bytes)} tokens`),
    `tools: about ${toolTokens} tokens${share(toolTokens)} (${tools.length} definitions)`,
    `messages: about ${tokens(m.user)} tokens from the user, ${tokens(m.assistant)} from the model`,
    `tool results: about ${tokens(m.results)} tokens${share(tokens(m.results))}`,
    ...(state.contextUsage
      ? [`the provider counted ${state.contextUsage.used} tokens in context after the last step`]
      : []),
  ];
  return {
    kind: "notice_shown",
    messageId: mintId("msg"),
    severity: "info",
    title: `Context: about ${total} tokens${size ? ` of the model's ${size}${share(total)}` : ""}`,
    description: lines.join("\n"),
  };
}
