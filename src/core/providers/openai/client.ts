/** The official OpenAI SDK client for a configured provider (Responses or Chat Completions). */
import { OpenAI } from "../../../lazy-sdks/openai-sdk.ts";
import { PLACEHOLDER_KEY, type ClientConfig } from "../provider-config.ts";
import { WIRES } from "../wire-table.ts";

/**
 * A client with the SDK's silent retries off (the turn loop retries, visibly) and nothing read
 * from the environment behind our back: the resolved configuration is the only source.
 */
export function openaiClient(config: ClientConfig): OpenAI {
  return new OpenAI({
    apiKey: config.apiKey ?? PLACEHOLDER_KEY,
    baseURL: config.baseUrl ?? WIRES.openai.defaultUrl,
    organization: null,
    project: null,
    adminAPIKey: null,
    maxRetries: 0,
    defaultHeaders: config.headers,
  });
}
