/**
 * The ways a user can configure a model provider, offered to clients (as ACP `authMethods`)
 * while none is configured. Keys live in verbatim's environment or its config file; choosing a
 * method re-reads the config file, so a provider added there works without a restart.
 */
import { WIRES } from "./wire-table.ts";

export type SetupMethod = { id: string; name: string; description: string };

export function setupMethods(userFile: string): SetupMethod[] {
  const restart = "then restart the agent";
  return [
    {
      id: "config-file",
      name: "Config file",
      description: `List your providers in ${userFile} (see verbatim's README), then choose this again to reload it.`,
    },
    {
      id: "anthropic",
      name: `${WIRES.anthropic.name} API key`,
      description: `Set ${WIRES.anthropic.keyVar} (and optionally VERBATIM_MODEL=anthropic/<model>) in the agent's environment, ${restart}.`,
    },
    {
      id: "openai",
      name: `${WIRES.openai.name} API key`,
      description: `Set ${WIRES.openai.keyVar} (and optionally VERBATIM_MODEL=openai/<model>) in the agent's environment, ${restart}.`,
    },
    {
      id: "openai-compatible",
      name: "OpenAI-compatible server (Ollama, vLLM, LM Studio…)",
      description: `Set ${WIRES["openai-chat"].urlVar} (for Ollama: http://127.0.0.1:11434/v1) and VERBATIM_MODEL=openai-chat/<model> in the agent's environment, ${restart}.`,
    },
  ];
}
