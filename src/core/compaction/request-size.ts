/**
 * The size of the next model request, in tokens, without asking the provider: the last step's
 * reported usage (its whole request and answer) plus an estimate of what was added since (tool
 * results, steering, hook context), at about four characters a token. With no step since the
 * context last restarted (a new session, a compaction), the whole request is estimated.
 */
import type { ToolSpec } from "../../journal/facts/index.ts";
import type { ModelMessage } from "../../replay/model-messages.ts";

/** About four characters a token: what the estimate assumes of text. */
export const CHARS_PER_TOKEN = 4;
/** What an image is counted as (providers charge roughly a thousand-odd tokens for a screen-sized one). */
const IMAGE_TOKENS = 1_500;

export const tokensOfChars = (chars: number): number => Math.ceil(chars / CHARS_PER_TOKEN);

/** The estimated tokens of `messages`. */
export function messageTokens(messages: readonly ModelMessage[]): number {
  let chars = 0;
  let images = 0;
  for (const m of messages) {
    if (m.role === "user") {
      for (const p of m.content) {
        if (p.type === "text") chars += p.text.length;
        else images++;
      }
    } else if (m.role === "assistant") {
      chars += m.text.length;
      for (const c of m.calls) chars += c.name.length + JSON.stringify(c.input ?? null).length;
    } else {
      for (const r of m.results) chars += r.text.length;
    }
  }
  return tokensOfChars(chars) + images * IMAGE_TOKENS;
}

export type RequestParts = {
  messages: readonly ModelMessage[];
  system: string;
  tools: readonly ToolSpec[];
  /** The context the last usage update showed (after a step: that step's request and answer). */
  usage: { used: number; size: number } | undefined;
};

/** The estimated size of the next request made of `parts`. */
export function requestTokens(parts: RequestParts): number {
  const { messages, usage } = parts;
  const lastStep = messages.findLastIndex((m) => m.role === "assistant");
  if (lastStep !== -1 && usage !== undefined) return usage.used + messageTokens(messages.slice(lastStep + 1));
  return tokensOfChars(parts.system.length + JSON.stringify(parts.tools).length) + messageTokens(messages);
}
