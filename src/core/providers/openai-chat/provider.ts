/**
 * The OpenAI-compatible Chat Completions adapter (Ollama, vLLM, llama.cpp server, LM Studio,
 * OpenRouter, DeepSeek, Qwen), through the official OpenAI SDK with a base URL. The SDK's own
 * retries are off (`maxRetries: 0`): the turn loop retries with a visible notice.
 */
import type OpenAI from "openai";
import { openaiClient } from "../openai/client.ts";
import { openaiFailure } from "../openai/errors.ts";
import { modelFacts } from "../model-facts.ts";
import type { ResolvedProvider } from "../provider-config.ts";
import { guardStream } from "../stream-guard.ts";
import type { Provider, ProviderEvent, ProviderRequest } from "../types.ts";
import { buildRequest } from "./request.ts";
import { parseStream } from "./stream.ts";

export function openaiChatProvider(config: ResolvedProvider): Provider {
  let client: OpenAI | undefined;
  const label = config.baseUrl ? `the model server at ${config.baseUrl}` : "OpenAI";
  async function* run(request: ProviderRequest, signal: AbortSignal): AsyncGenerator<ProviderEvent> {
    client ??= openaiClient(config);
    const body = buildRequest(request, config.id, config.model(request.model));
    const chunks = await client.chat.completions.create(body, { signal });
    yield* parseStream(chunks);
  }
  return {
    id: config.id,
    ...modelFacts(config),
    stream: (request, signal) => guardStream(() => run(request, signal), openaiFailure(label, config), signal),
  };
}
