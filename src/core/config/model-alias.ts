/**
 * The model a command, skill or custom subagent names in its front matter (`model:`), as Claude
 * Code users write it (agent-conventions §4.5): `inherit` (or nothing) keeps the session's model;
 * `<provider>/<model>` names one outright; a full model id (`claude-haiku-4-5`) is that model of
 * the session's provider, or of the first provider that lists it; an alias (`sonnet`, `opus`,
 * `haiku`) is the first model the session's provider lists whose id holds the word, then any
 * provider's. Claude Code's aliases follow Anthropic's newest models; verbatim has no such table,
 * so an alias is read against the models this process lists (docs/configuration.md says so).
 */
import type { ModelRef } from "../../journal/facts/index.ts";
import type { ModelChoice } from "./config-options.ts";
import { parseModelRef } from "./model-ref.ts";

export type NamedModel = { state: "inherit" } | { state: "ok"; ref: ModelRef } | { state: "unknown"; name: string };

/** The model `name` means for a session on `current` that lists `models`. */
export function namedModel(name: string | undefined, current: ModelRef, models: readonly ModelChoice[]): NamedModel {
  const value = name?.trim() ?? "";
  if (value === "" || value === "inherit") return { state: "inherit" };
  const ref = parseModelRef(value);
  if (ref && models.some((m) => m.ref.provider === ref.provider)) return { state: "ok", ref };
  const own = models.filter((m) => m.ref.provider === current.provider);
  const exact = own.find((m) => m.ref.model === value) ?? models.find((m) => m.ref.model === value);
  if (exact) return { state: "ok", ref: exact.ref };
  const word = value.toLowerCase();
  if (/^[a-z]+$/.test(word)) {
    const alias = own.find((m) => m.ref.model.includes(word)) ?? models.find((m) => m.ref.model.includes(word));
    if (alias) return { state: "ok", ref: alias.ref };
  }
  return { state: "unknown", name: value };
}
