/**
 * Asking a provider for its models: the one request every wire serves, cheap, sent to no model
 * and recorded nowhere. `doctor` checks a configured provider with it and `setup` a provider
 * before saving it; both report the answer in these words. It goes through the adapters' own
 * SDK clients (the key, the headers, no retries), loaded only here, as when a session first
 * streams.
 */
import type { ProviderKind } from "../config/settings-schema.ts";
import { baseUrlHint, readableFailure } from "./http-failure.ts";
import type { ClientConfig } from "./provider-config.ts";
import { modelsUrl, WIRES, type Wire } from "./wire-table.ts";

export type ModelsTarget = ClientConfig & { kind: ProviderKind };

export type ModelList = { ok: true; models: string[] } | { ok: false; message: string };

/** The SDK's error classes (the names are minified in the bundle, so only `instanceof` tells them apart). */
type ErrorClasses = {
  abort: abstract new (...args: never[]) => Error;
  connection: abstract new (...args: never[]) => Error;
  api: abstract new (...args: never[]) => Error & { status?: number | undefined };
};

type Lister = { list: (signal: AbortSignal) => Promise<unknown[]>; errors: ErrorClasses };

/** Each SDK's models request (a record over the SDKs, so a wire on a new SDK needs its own). */
const LISTERS: Record<Wire["sdk"], (target: ModelsTarget) => Promise<Lister>> = {
  anthropic: async (target) => {
    const [{ anthropicClient }, sdk] = await Promise.all([
      import("./anthropic/provider.ts"),
      import("../../lazy-sdks/anthropic-sdk.ts"),
    ]);
    const client = anthropicClient(target);
    return {
      list: async (signal) => (await client.models.list({ limit: 100 }, { signal })).data.map((m) => m.id),
      errors: { abort: sdk.APIUserAbortError, connection: sdk.APIConnectionError, api: sdk.APIError },
    };
  },
  openai: async (target) => {
    const [{ openaiClient }, sdk] = await Promise.all([
      import("./openai/client.ts"),
      import("../../lazy-sdks/openai-sdk.ts"),
    ]);
    const client = openaiClient(target);
    return {
      list: async (signal) => (await client.models.list({ signal })).data.map((m) => m.id),
      errors: { abort: sdk.APIUserAbortError, connection: sdk.APIConnectionError, api: sdk.APIError },
    };
  },
};

/** The provider's model ids, or what went wrong in the user's words, within `timeoutMs`. Never throws. */
export async function listModels(target: ModelsTarget, timeoutMs: number): Promise<ModelList> {
  const url = modelsUrl(target.kind, target.baseUrl);
  let lister: Lister;
  try {
    lister = await LISTERS[WIRES[target.kind].sdk](target);
  } catch (error) {
    return { ok: false, message: `cannot check ${url}: ${describe(error)}.` };
  }
  try {
    const models = await lister.list(AbortSignal.timeout(timeoutMs));
    return { ok: true, models: models.filter((id): id is string => typeof id === "string") };
  } catch (error) {
    return { ok: false, message: failure(target, url, timeoutMs, error, lister.errors) };
  }
}

const UNREACHED = "is the server running, and is the URL right?";

function failure(target: ModelsTarget, url: string, timeoutMs: number, error: unknown, errors: ErrorClasses): string {
  if (error instanceof errors.abort) return `${url} gave no answer within ${timeoutMs / 1000}s: ${UNREACHED}`;
  if (error instanceof errors.connection) return `could not reach ${url} (${describe(error)}): ${UNREACHED}`;
  if (error instanceof errors.api) {
    const status = error.status;
    if (status === 401 || status === 403) return `${url} refused the key (HTTP ${status}): check the API key.`;
    const { text, html } = readableFailure(error.message);
    const hint = baseUrlHint(target.kind, target.baseUrl, status, html);
    return `${url} answered HTTP ${status ?? "?"} (${text}): ${hint ? `${hint}.` : "is this the right URL?"}`;
  }
  return `${url} did not answer with a list of models (${describe(error)}): is this the right URL?`;
}

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : undefined;
  return cause && cause !== message ? `${message} ${cause}` : message;
}
