/**
 * The OpenAI Responses adapter, through the official SDK. The SDK's own retries are off
 * (`maxRetries: 0`): the turn loop retries with a visible notice.
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

export function openaiResponsesProvider(config: ResolvedProvider): Provider {
  let client: OpenAI | undefined;
  async function* run(request: ProviderRequest, signal: AbortSignal): AsyncGenerator<ProviderEvent> {
    client ??= openaiClient(config);
    const body = buildRequest(request, config.id, config.model(request.model));
    const events = await client.responses.create(body, { signal });
    yield* parseStream(events);
  }
  return {
    id: config.id,
    ...modelFacts(config),
    stream: (request, signal) => guardStream(() => run(request, signal), openaiFailure("OpenAI", config), signal),
  };
}
