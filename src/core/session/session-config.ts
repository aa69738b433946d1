/**
 * A session's config values (mode, model, thought level): read from its folded state, and
 * changed by name with the checks a client's request needs. Pure; the runtime records the change.
 */
import type { FactOf } from "../../journal/facts/index.ts";
import type { SessionStateFold } from "../../replay/state.ts";
import type { SessionConfigOption } from "@agentclientprotocol/sdk";
import { buildConfigOptions, type ConfigValues } from "../config/config-options.ts";
import { isModeId } from "../config/modes.ts";
import { formatModelRef, parseModelRef } from "../config/model-ref.ts";
import { isThoughtLevel, type ThoughtLevel } from "../config/thought-levels.ts";
import { EngineError } from "../errors.ts";
import type { ProviderCatalog } from "../providers/catalog.ts";

export const DEFAULT_THOUGHT_LEVEL: ThoughtLevel = "medium";

/** The values as the session's facts last set them. */
export function configValuesOf(state: SessionStateFold): ConfigValues {
  const model = parseModelRef(state.configValue("model") ?? "");
  const level = state.configValue("thought_level") ?? DEFAULT_THOUGHT_LEVEL;
  return {
    modeId: state.modeId,
    model: model ?? { provider: "unknown", model: "unknown" },
    thoughtLevel: isThoughtLevel(level) ? level : DEFAULT_THOUGHT_LEVEL,
  };
}

/** The config options as the session's facts last set them, listing the models `catalog` knows. */
export function currentConfigOptions(
  state: SessionStateFold,
  catalog: Pick<ProviderCatalog, "models">,
): SessionConfigOption[] {
  return buildConfigOptions(configValuesOf(state), catalog.models());
}

/** `current` with one option changed. Throws `invalid_config` for an unknown option or value. */
export function changedConfig(
  current: ConfigValues,
  configId: string,
  value: string,
  catalog: ProviderCatalog,
): ConfigValues {
  switch (configId) {
    case "mode":
      if (!isModeId(value)) throw new EngineError("invalid_config", `unknown mode "${value}"`, { configId, value });
      return { ...current, modeId: value };
    case "model": {
      // Only a listed model (or the one the session already has): a value a client made up would
      // fail only at the next turn.
      const ref = parseModelRef(value);
      const listed =
        value === formatModelRef(current.model) || catalog.models().some((m) => formatModelRef(m.ref) === value);
      if (!ref || !listed || !catalog.provider(ref)) {
        throw new EngineError("invalid_config", `model "${value}" is not available; choose one of the listed models`, {
          configId,
          value,
        });
      }
      return { ...current, model: ref };
    }
    case "thought_level":
      if (!isThoughtLevel(value))
        throw new EngineError("invalid_config", `unknown thought level "${value}"`, { configId, value });
      return { ...current, thoughtLevel: value };
    default:
      throw new EngineError("invalid_config", `unknown config option "${configId}"`, { configId });
  }
}

/** The fact that changes one option of `current` (with the whole set as it then stands). Throws as changedConfig does. */
export function configChange(
  current: ConfigValues,
  configId: string,
  value: string,
  catalog: ProviderCatalog,
): FactOf<"config_changed"> {
  const configOptions = buildConfigOptions(changedConfig(current, configId, value, catalog), catalog.models());
  return { kind: "config_changed", configId, value, configOptions, ...(configId === "mode" ? { modeId: value } : {}) };
}
