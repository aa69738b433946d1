/** How an Anthropic request asks for thinking, from the session's thought level and the model. */
import type { MessageCreateParamsStreaming } from "@anthropic-ai/sdk/resources/messages";
import type { ModelInfo } from "../known-models.ts";
import type { ThoughtLevel } from "../../config/thought-levels.ts";

/** Manual budgets (older models): tokens of thinking per level, kept below the output limit. */
const BUDGETS = { low: 4_000, medium: 10_000, high: 24_000 } as const;
const MIN_BUDGET = 1_024;

type ThinkingParams = Pick<MessageCreateParamsStreaming, "thinking" | "output_config">;

export function thinkingParams(level: ThoughtLevel, info: ModelInfo): ThinkingParams {
  if (info.thinking === "none" || (info.thinking !== "adaptive" && info.thinking !== "budget")) return {};
  if (level === "off") return { thinking: { type: "disabled" } };
  if (info.thinking === "adaptive") {
    // `summarized` so the thinking text is returned (and shown); effort sets how hard to think.
    return { thinking: { type: "adaptive", display: "summarized" }, output_config: { effort: level } };
  }
  const budget = Math.min(BUDGETS[level], info.maxOutputTokens - MIN_BUDGET);
  return budget >= MIN_BUDGET
    ? { thinking: { type: "enabled", budget_tokens: budget } }
    : { thinking: { type: "disabled" } };
}
