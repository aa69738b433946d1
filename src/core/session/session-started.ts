/** What a new session records first: where it runs, what the model is told, what it offers. */
import type { FactOf } from "../../journal/facts/index.ts";
import type { SkippedFile } from "../confinement/own-files.ts";
import { buildConfigOptions, type ConfigValues, type ModelChoice } from "../config/config-options.ts";
import { modes } from "../config/modes.ts";
import type { ToolRegistry } from "../tools/registry.ts";
import type { ChildParams, NewSessionParams } from "./session-types.ts";
import { readOrigin } from "./session-origin.ts";
import { buildSystemPrompt } from "./system-prompt.ts";

/** The fact, and the instruction files left out of its system prompt (to be shown to the user). */
export function sessionStartedFact(
  params: NewSessionParams,
  options: {
    agentVersion: string;
    today: string;
    tools: ToolRegistry;
    values: ConfigValues;
    models: ModelChoice[];
    child?: ChildParams;
  },
): { fact: FactOf<"session_started">; skipped: SkippedFile[] } {
  const { child } = options;
  const { text: systemPrompt, skipped } = buildSystemPrompt(params.cwd, params.additionalDirectories, options.today);
  return {
    skipped,
    fact: {
      kind: "session_started",
      cwd: params.cwd,
      additionalDirectories: params.additionalDirectories,
      agentVersion: options.agentVersion,
      systemPrompt: child ? `${systemPrompt}\n\n${child.kind.systemPrompt}` : systemPrompt,
      tools: options.tools.specs(),
      modes: { currentModeId: options.values.modeId, availableModes: modes.map((m) => ({ ...m })) },
      configOptions: buildConfigOptions(options.values, options.models),
      ...(child ? { parentSessionId: child.parentSessionId, subagentType: child.kind.name } : {}),
      origin: readOrigin(params.cwd),
    },
  };
}
