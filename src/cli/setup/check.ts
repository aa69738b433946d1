/**
 * Checking a provider before its settings are saved: one models request (`GET …/models`), the
 * cheapest call every provider kind answers, which proves the server is reachable and the key
 * is accepted. The answer says what happened in the user's words.
 */
import type { ProviderKind } from "../../core/config/settings-schema.ts";

/** The providers' public endpoints (the adapters use the same ones when no base URL is set). */
export const DEFAULT_URLS: Record<Exclude<ProviderKind, "openai-chat">, string> = {
  anthropic: "https://api.anthropic.com",
  openai: "https://api.openai.com/v1",
};

export type CheckResult = { ok: true; models: string[] } | { ok: false; message: string };

/** The models URL: Anthropic's base URL has no /v1 (the SDK adds it); OpenAI-style ones do. */
export function modelsUrl(kind: ProviderKind, baseUrl: string): string {
  const base = baseUrl.replace(/\/+$/, "");
  return kind === "anthropic" ? `${base}/v1/models` : `${base}/models`;
}

function headers(kind: ProviderKind, apiKey: string | undefined): Record<string, string> {
  if (kind === "anthropic") return { "anthropic-version": "2023-06-01", ...(apiKey ? { "x-api-key": apiKey } : {}) };
  return apiKey ? { authorization: `Bearer ${apiKey}` } : {};
}

/** Asks the server for its models, within `timeoutMs`. Never throws. */
export async function checkProvider(kind: ProviderKind, baseUrl: string, apiKey: string | undefined, timeoutMs = 15_000): Promise<CheckResult> {
  const url = modelsUrl(kind, baseUrl);
  let response: Response;
  try {
    response = await fetch(url, { headers: headers(kind, apiKey), signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const why = error instanceof Error && error.name === "TimeoutError" ? `no answer in ${timeoutMs / 1000} s` : describe(error);
    return { ok: false, message: `could not reach ${url} (${why})` };
  }
  if (response.status === 401 || response.status === 403) {
    return { ok: false, message: `${url} refused the key (HTTP ${response.status}): check it and run the setup again` };
  }
  if (!response.ok) return { ok: false, message: `${url} answered HTTP ${response.status} ${response.statusText}`.trim() };
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    return { ok: false, message: `${url} did not answer with a list of models (not JSON): is this the right URL?` };
  }
  const data = typeof body === "object" && body !== null && "data" in body ? body.data : undefined;
  if (!Array.isArray(data)) return { ok: false, message: `${url} did not answer with a list of models: is this the right URL?` };
  const models = data.flatMap((m: unknown) => (typeof m === "object" && m !== null && "id" in m && typeof m.id === "string" ? [m.id] : []));
  return { ok: true, models };
}

function describe(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : undefined;
  const message = error instanceof Error ? error.message : String(error);
  return cause && cause !== message ? `${message}: ${cause}` : message;
}
