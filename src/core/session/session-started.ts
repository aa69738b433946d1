/** What a new session records first: where it runs, what the model is told, what it offers. */
import type { FactOf, PermissionSettingsRead } from "../../journal/facts/index.ts";
import { settingsMode } from "../permissions/settings-rules.ts";
import { skippedNotice, type SkippedFile } from "../confinement/own-files.ts";
import { buildConfigOptions, type ConfigValues, type ModelChoice } from "../config/config-options.ts";
import { modes } from "../config/modes.ts";
import type { ToolRegistry } from "../tools/registry.ts";
import type { ChildParams, NewSessionParams } from "./session-types.ts";
import { thisProcess } from "../../journal/process-identity.ts";
import { readOrigin } from "./session-origin.ts";
import { buildSystemPrompt } from "./system-prompt.ts";
import { mintId } from "../ids.ts";
import type { ProviderCatalog } from "../providers/catalog.ts";
import { DEFAULT_THOUGHT_LEVEL } from "./session-config.ts";

/**
 * What a new top-level session starts with: the settings files' `defaultMode` (settings-rules.ts),
 * else the catalog's default mode; the catalog's thought level; and `model`.
 */
export function startValues(
  catalog: ProviderCatalog,
  model: ConfigValues["model"],
  settings?: PermissionSettingsRead,
): ConfigValues {
  const defaults = catalog.defaults();
  return {
    modeId: (settings ? settingsMode(settings).mode : undefined) ?? defaults.modeId ?? "default",
    model,
    thoughtLevel: defaults.thoughtLevel ?? DEFAULT_THOUGHT_LEVEL,
  };
}

/**
 * The notices a new top-level session records after its first fact: each config setting that was
 * not applied, and the instruction files its system prompt left out.
 */
export function startNotices(
  configWarnings: readonly string[],
  skipped: readonly SkippedFile[],
): FactOf<"notice_shown">[] {
  const notices: FactOf<"notice_shown">[] = configWarnings.map((warning) => ({
    kind: "notice_shown",
    messageId: mintId("msg"),
    severity: "warning",
    title: "A config setting was not applied",
    description: warning,
  }));
  const left = skippedNotice(skipped);
  if (left) notices.push({ kind: "notice_shown", messageId: mintId("msg"), ...left });
  return notices;
}

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
      holder: thisProcess(),
    },
  };
}
