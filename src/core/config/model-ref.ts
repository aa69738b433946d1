import type { ModelRef } from "../../journal/facts/index.ts";

/** Parses `<provider>/<model>`, splitting on the first `/` only (OpenRouter ids contain `/`). */
export function parseModelRef(value: string): ModelRef | undefined {
  const slash = value.indexOf("/");
  if (slash <= 0 || slash === value.length - 1) return undefined;
  return { provider: value.slice(0, slash), model: value.slice(slash + 1) };
}

export const formatModelRef = (ref: ModelRef) => `${ref.provider}/${ref.model}`;
