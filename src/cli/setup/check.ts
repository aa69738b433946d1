/**
 * Checking a provider before its settings are saved: one models request, through the provider's
 * official SDK (the one the adapter streams with, loaded only here), the cheapest call every
 * provider kind answers. It proves the server is reachable and the key is accepted; the answer
 * says what happened in the user's words.
 */
import type { ProviderKind } from "../../core/config/settings-schema.ts";

/** The providers' public endpoints (the adapters use the same ones when no base URL is set). */
export const DEFAULT_URLS: Record<Exclude<ProviderKind, "openai-chat">, string> = {
  anthropic: "https://api.anthropic.com",
  openai: "https://api.openai.com/v1",
};

/** Sent when a server needs no key: the SDKs will not start without one (as the adapters do). */
const PLACEHOLDER_KEY = "verbatim-no-key";

export type CheckResult = { ok: true; models: string[] } | { ok: false; message: string };

/** The models URL the SDK asks: Anthropic's base URL has no /v1 (the SDK adds it); OpenAI-style ones do. */
export function modelsUrl(kind: ProviderKind, baseUrl: string): string {
  const base = baseUrl.replace(/\/+$/, "");
  return kind === "anthropic" ? `${base}/v1/models` : `${base}/models`;
}

/** The SDK's error classes (the names are minified in the bundle, so only `instanceof` tells them apart). */
type ErrorClasses = {
  connection: abstract new (...args: never[]) => Error;
  api: abstract new (...args: never[]) => Error & { status?: number | undefined };
};

async function listModels(
  kind: ProviderKind,
  baseUrl: string,
  apiKey: string | undefined,
  timeout: number,
): Promise<{ list: () => Promise<unknown[]>; errors: ErrorClasses }> {
  const common = { apiKey: apiKey ?? PLACEHOLDER_KEY, baseURL: baseUrl, maxRetries: 0, timeout };
  if (kind === "anthropic") {
    const sdk = await import("../../lazy-sdks/anthropic-sdk.ts");
    const client = new sdk.Anthropic({ ...common, authToken: null });
    return {
      list: async () => (await client.models.list({ limit: 100 })).data.map((m) => m.id),
      errors: { connection: sdk.APIConnectionError, api: sdk.APIError },
    };
  }
  const sdk = await import("../../lazy-sdks/openai-sdk.ts");
  const client = new sdk.OpenAI({ ...common, organization: null, project: null, adminAPIKey: null });
  return {
    list: async () => (await client.models.list()).data.map((m) => m.id),
    errors: { connection: sdk.APIConnectionError, api: sdk.APIError },
  };
}

/** Asks the server for its models, within `timeoutMs`. Never throws. */
export async function checkProvider(
  kind: ProviderKind,
  baseUrl: string,
  apiKey: string | undefined,
  timeoutMs = 15_000,
): Promise<CheckResult> {
  const url = modelsUrl(kind, baseUrl);
  const { list, errors } = await listModels(kind, baseUrl, apiKey, timeoutMs);
  try {
    const models = await list();
    return { ok: true, models: models.filter((id): id is string => typeof id === "string") };
  } catch (error) {
    return { ok: false, message: failure(url, error, errors) };
  }
}

function failure(url: string, error: unknown, errors: ErrorClasses): string {
  if (error instanceof errors.connection) return `could not reach ${url} (${describe(error)})`;
  const status = error instanceof errors.api ? error.status : undefined;
  if (status === 401 || status === 403)
    return `${url} refused the key (HTTP ${status}): check it and run the setup again`;
  if (status !== undefined) return `${url} answered HTTP ${status}: is this the right URL?`;
  return `${url} did not answer with a list of models (${describe(error)}): is this the right URL?`;
}

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : undefined;
  return cause && cause !== message ? `${message} ${cause}` : message;
}
