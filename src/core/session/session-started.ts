/** What a new session records first: where it runs, what the model is told, what it offers. */
import type { ContextSource, FactOf, OfferedItem, PermissionSettingsRead } from "../../journal/facts/index.ts";
import { settingsMode } from "../permissions/settings-rules.ts";
import { skippedNotice, type SkippedFile } from "../confinement/own-files.ts";
import { buildConfigOptions, type ConfigValues, type ModelChoice } from "../config/config-options.ts";
import { modes } from "../config/modes.ts";
import type { ToolRegistry } from "../tools/registry.ts";
import type { ChildParams, NewSessionParams } from "./session-types.ts";
import { thisProcess } from "../../journal/process-identity.ts";
import { readOrigin } from "./session-origin.ts";
import { type BuiltPrompt, buildSystemPrompt } from "./system-prompt.ts";
import { MAX_INSTRUCTION_CHARS } from "../instructions/read-instructions.ts";
import { commandFiles, type UserCommand } from "../commands/command-files.ts";
import { agentFiles, type CustomAgent } from "../subagents/agent-files.ts";
import { commandPlace } from "./command-place.ts";
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
 * not applied, the instruction files its system prompt left out, and those it holds only in part.
 */
export function startNotices(
  configWarnings: readonly string[],
  skipped: readonly SkippedFile[],
  cut: readonly string[] = [],
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
  if (cut.length > 0)
    notices.push({
      kind: "notice_shown",
      messageId: mintId("msg"),
      severity: "warning",
      title: `${cut.length} instruction file${cut.length === 1 ? " was" : "s were"} given to the model only in part`,
      description: cut.map((path) => `${path}: its first ${MAX_INSTRUCTION_CHARS} characters`).join("\n"),
    });
  return notices;
}

/**
 * The fact, what its system prompt was built from (for the `context_given` fact that follows it),
 * and the instruction files left out of it or cut (to be shown to the user).
 */
export async function sessionStartedFact(
  params: NewSessionParams,
  options: {
    agentVersion: string;
    today: string;
    tools: ToolRegistry;
    values: ConfigValues;
    models: ModelChoice[];
    child?: ChildParams;
  },
): Promise<{ fact: FactOf<"session_started">; prompt: BuiltPrompt; offered: OfferedAtStart }> {
  const { child } = options;
  const offered: OfferedAtStart = child ? { skills: [], commands: [], agents: [] } : await offeredAtStart(params);
  const forModel = offered.skills.filter((s) => s.modelInvocable);
  // A skill with `paths` is listed to the model once it reads a file they match (instructions/path-skills.ts).
  const prompt = await buildSystemPrompt(params.cwd, params.additionalDirectories, options.today, process.env, {
    skills: forModel.filter((s) => !s.paths),
    agents: offered.agents,
  });
  const systemPrompt = prompt.text;
  return {
    prompt,
    offered,
    fact: {
      kind: "session_started",
      cwd: params.cwd,
      additionalDirectories: params.additionalDirectories,
      agentVersion: options.agentVersion,
      systemPrompt: child ? `${systemPrompt}\n\n${child.kind.systemPrompt}` : systemPrompt,
      // The Skill tool is offered only with skills to load.
      tools: options.tools.specs().filter((t) => t.name !== "Skill" || forModel.length > 0),
      modes: { currentModeId: options.values.modeId, availableModes: modes.map((m) => ({ ...m })) },
      configOptions: buildConfigOptions(options.values, options.models),
      ...(child ? { parentSessionId: child.parentSessionId, subagentType: child.kind.name } : {}),
      origin: readOrigin(params.cwd),
      holder: thisProcess(),
    },
  };
}

/** The skills, commands and custom subagents a new top-level session offers. */
export type OfferedAtStart = { skills: UserCommand[]; commands: UserCommand[]; agents: CustomAgent[] };

async function offeredAtStart(params: NewSessionParams): Promise<OfferedAtStart> {
  const place = commandPlace(params);
  const [files, agents] = await Promise.all([commandFiles(place), agentFiles(place)]);
  return {
    skills: files.commands.filter((c) => c.kind === "skill"),
    commands: files.commands.filter((c) => c.kind === "command"),
    agents: agents.agents,
  };
}

/** What the model was given beside its system prompt: the sources it was built from, and what it was offered. */
export function contextGivenFact(
  sources: ContextSource[],
  offered: { skills?: OfferedItem[]; commands?: OfferedItem[]; agents?: OfferedItem[] } = {},
  exclusions: Pick<FactOf<"context_given">, "excludes" | "excluded"> = {},
): FactOf<"context_given"> {
  return {
    kind: "context_given",
    messageId: mintId("msg"),
    sources,
    skills: offered.skills ?? [],
    commands: offered.commands ?? [],
    agents: offered.agents ?? [],
    ...(exclusions.excludes?.length ? { excludes: exclusions.excludes } : {}),
    ...(exclusions.excluded?.length ? { excluded: exclusions.excluded } : {}),
  };
}
