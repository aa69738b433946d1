/**
 * A configured provider whose adapter (and the official SDK it is built on) loads when it first
 * streams. Loading an SDK costs tens of milliseconds; answering `initialize`, listing models or
 * reopening a session never needs one, so none of them pays for it.
 *
 * The adapters' contract holds: `stream` never throws once called. A failure to load the adapter
 * is the stream's final error event.
 */
import type { ProviderKind } from "../config/settings-schema.ts";
import { modelFacts } from "./model-facts.ts";
import type { ResolvedProvider } from "./provider-config.ts";
import { errorText, toErrorEvent } from "./retry-policy.ts";
import type { Provider, ProviderEvent, ProviderRequest } from "./types.ts";

type AdapterFactory = (config: ResolvedProvider) => Provider;

/** Each kind's adapter module, imported on first use. */
const ADAPTERS: Record<ProviderKind, () => Promise<AdapterFactory>> = {
  anthropic: async () => (await import("./anthropic/provider.ts")).anthropicProvider,
  openai: async () => (await import("./openai-responses/provider.ts")).openaiResponsesProvider,
  "openai-chat": async () => (await import("./openai-chat/provider.ts")).openaiChatProvider,
};

/**
 * The provider `config` describes, its adapter created on the first `stream` and reused after.
 * `load` picks the adapter module (the real ones unless given).
 */
export function lazyProvider(
  config: ResolvedProvider,
  load: () => Promise<AdapterFactory> = ADAPTERS[config.kind],
): Provider {
  let adapter: Promise<Provider> | undefined;
  const connect = (): Promise<Provider> => {
    if (!adapter) {
      adapter = load().then((create) => create(config));
      // A failed load is tried again on the next stream (nothing was created to reuse).
      adapter.catch(() => {
        adapter = undefined;
      });
    }
    return adapter;
  };
  async function* stream(request: ProviderRequest, signal: AbortSignal): AsyncGenerator<ProviderEvent> {
    let provider: Provider;
    try {
      provider = await connect();
    } catch (error) {
      yield toErrorEvent(
        signal.aborted
          ? { kind: "cancelled" }
          : { kind: "other", message: `could not load the ${config.kind} adapter: ${errorText(error)}` },
      );
      return;
    }
    yield* provider.stream(request, signal);
  }
  /** The adapter's own count, where its wire offers one (Anthropic's count_tokens); undefined otherwise. */
  async function countTokens(request: ProviderRequest, signal: AbortSignal): Promise<number | undefined> {
    if (config.kind !== "anthropic") return undefined;
    try {
      return await (await connect()).countTokens?.(request, signal);
    } catch {
      return undefined;
    }
  }
  return { id: config.id, ...modelFacts(config), stream, countTokens };
}
