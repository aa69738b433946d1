/** What a new session records first: where it runs, what the model is told, what it offers. */
import type { FactOf } from "../../journal/facts/index.ts";
import { buildConfigOptions, type ConfigValues, type ModelChoice } from "../config/config-options.ts";
import { modes } from "../config/modes.ts";
import type { ToolRegistry } from "../tools/registry.ts";
import type { ChildParams, NewSessionParams } from "./session-types.ts";
import { buildSystemPrompt } from "./system-prompt.ts";

export function sessionStartedFact(
  params: NewSessionParams,
  options: { agentVersion: string; today: string; tools: ToolRegistry; values: ConfigValues; models: ModelChoice[]; child?: ChildParams },
): FactOf<"session_started"> {
  const { child } = options;
  const systemPrompt = buildSystemPrompt(params.cwd, params.additionalDirectories, options.today);
  return {
    kind: "session_started",
    cwd: params.cwd,
    additionalDirectories: params.additionalDirectories,
    agentVersion: options.agentVersion,
    systemPrompt: child ? `${systemPrompt}\n\n${child.kind.systemPrompt}` : systemPrompt,
    tools: options.tools.specs(),
    modes: { currentModeId: options.values.modeId, availableModes: modes.map((m) => ({ ...m })) },
    configOptions: buildConfigOptions(options.values, options.models),
    ...(child ? { parentSessionId: child.parentSessionId, subagentType: child.kind.name } : {}),
  };
}
