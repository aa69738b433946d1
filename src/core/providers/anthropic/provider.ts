/**
 * The Anthropic Messages adapter, through the official SDK. The SDK's own retries are off
 * (`maxRetries: 0`): the turn loop retries with a visible notice.
 */
import { modelFacts } from "../model-facts.ts";
import { PLACEHOLDER_KEY, type ClientConfig, type ResolvedProvider } from "../provider-config.ts";
import { guardStream } from "../stream-guard.ts";
import { WIRES } from "../wire-table.ts";
import type { Provider, ProviderEvent, ProviderRequest } from "../types.ts";
import { Anthropic } from "../../../lazy-sdks/anthropic-sdk.ts";
import { anthropicFailure } from "./errors.ts";
import { buildRequest } from "./request.ts";
import { parseStream } from "./stream.ts";

/** The SDK client for a configured provider: no silent retries, nothing read from the environment. */
export const anthropicClient = (config: ClientConfig): Anthropic =>
  new Anthropic({
    apiKey: config.apiKey ?? PLACEHOLDER_KEY,
    authToken: null,
    baseURL: config.baseUrl ?? WIRES.anthropic.defaultUrl,
    maxRetries: 0,
    defaultHeaders: config.headers,
  });

export function anthropicProvider(config: ResolvedProvider): Provider {
  let client: Anthropic | undefined;
  const connect = () => (client ??= anthropicClient(config));
  async function* run(request: ProviderRequest, signal: AbortSignal): AsyncGenerator<ProviderEvent> {
    const body = buildRequest(request, config.id, config.model(request.model));
    const events = await connect().messages.create(body, { signal });
    yield* parseStream(events);
  }
  /** Anthropic's count_tokens for the request a step would send; undefined when it could not count. */
  async function countTokens(request: ProviderRequest, signal: AbortSignal): Promise<number | undefined> {
    const { model, system, tools, messages } = buildRequest(request, config.id, config.model(request.model));
    try {
      const counted = await connect().messages.countTokens(
        { model, messages, ...(system ? { system } : {}), ...(tools ? { tools } : {}) },
        { signal },
      );
      return counted.input_tokens;
    } catch {
      return undefined;
    }
  }
  return {
    id: config.id,
    ...modelFacts(config),
    stream: (request, signal) => guardStream(() => run(request, signal), anthropicFailure(config.baseUrl), signal),
    countTokens,
  };
}
