/**
 * The session's config options as shown to the client: mode, model and thought level. Built
 * from the current values and the models this process knows; the values shown are recorded.
 */
import type { SessionConfigOption } from "@agentclientprotocol/sdk";
import type { ModelRef } from "../../journal/facts/index.ts";
import { modes } from "./modes.ts";
import { formatModelRef } from "./model-ref.ts";
import { thoughtLevels } from "./thought-levels.ts";
import type { ThoughtLevel } from "./thought-levels.ts";

export type ModelChoice = { ref: ModelRef; name: string; description?: string };

export type ConfigValues = { modeId: string; model: ModelRef; thoughtLevel: ThoughtLevel };

export function buildConfigOptions(values: ConfigValues, models: ModelChoice[]): SessionConfigOption[] {
  const current = formatModelRef(values.model);
  const choices = models.some((m) => formatModelRef(m.ref) === current)
    ? models
    : [{ ref: values.model, name: current, description: "The model this session recorded" }, ...models];
  return [
    {
      id: "mode",
      name: "Mode",
      description: "How much verbatim may do without asking",
      category: "mode",
      type: "select",
      currentValue: values.modeId,
      options: modes.map((m) => ({
        value: m.id,
        name: m.name,
        ...(m.description ? { description: m.description } : {}),
      })),
    },
    {
      id: "model",
      name: "Model",
      category: "model",
      type: "select",
      currentValue: current,
      options: choices.map((m) => ({
        value: formatModelRef(m.ref),
        name: m.name,
        ...(m.description ? { description: m.description } : {}),
      })),
    },
    {
      id: "thought_level",
      name: "Thinking",
      category: "thought_level",
      type: "select",
      currentValue: values.thoughtLevel,
      options: thoughtLevels.map((t) => ({ value: t.id, name: t.name, description: t.description })),
    },
  ];
}
