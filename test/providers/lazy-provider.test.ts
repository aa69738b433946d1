/**
 * A configured provider's adapter (and its SDK) loads on its first stream. Until then the
 * provider answers from its configuration; a failed load ends that stream with an error event,
 * never a throw, and the next stream tries again.
 */
import { describe, expect, test } from "bun:test";
import { lazyProvider } from "../../src/core/providers/lazy-provider.ts";
import { resolveProviders, type ResolvedProvider } from "../../src/core/providers/provider-config.ts";
import type { Provider, ProviderEvent } from "../../src/core/providers/types.ts";

function anthropicConfig(): ResolvedProvider {
  const setup = resolveProviders({}, { ANTHROPIC_API_KEY: "test-key" }, "/nowhere/config.json");
  const config = setup.providers.find((p) => p.id === "anthropic");
  if (!config) throw new Error("no anthropic provider resolved");
  return config;
}

const request = {
  model: "claude-sonnet-4-6",
  system: "",
  messages: [],
  tools: [],
  thoughtLevel: "off" as const,
  cwd: "/tmp",
};

async function drain(provider: Provider): Promise<ProviderEvent[]> {
  const events: ProviderEvent[] = [];
  for await (const event of provider.stream(request, new AbortController().signal)) events.push(event);
  return events;
}

/** An adapter that answers every stream with one text delta and `done`, counting how often it was created. */
function countingAdapter() {
  const counts = { loads: 0, created: 0 };
  const load = async () => {
    counts.loads++;
    return (config: ResolvedProvider): Provider => {
      counts.created++;
      return {
        id: config.id,
        contextWindow: () => 1,
        stream: async function* () {
          yield { type: "text_delta", text: "hi" } as const;
          yield { type: "done", stopReason: "end_turn" } as const;
        },
      };
    };
  };
  return { counts, load };
}

describe("a lazily loaded provider", () => {
  test("answers its context window and cost from the configuration without loading the adapter", () => {
    const config = anthropicConfig();
    const { counts, load } = countingAdapter();
    const provider = lazyProvider(config, load);
    expect(provider.id).toBe("anthropic");
    expect(provider.contextWindow("claude-sonnet-4-6")).toBe(config.model("claude-sonnet-4-6").contextWindow);
    expect(provider.cost?.("claude-sonnet-4-6", { inputTokens: 1_000_000, outputTokens: 0 })).toEqual({
      amount: config.model("claude-sonnet-4-6").price?.input ?? Number.NaN,
      currency: "USD",
    });
    expect(counts).toEqual({ loads: 0, created: 0 });
  });

  test("loads and creates the adapter on the first stream, and reuses it for later ones", async () => {
    const { counts, load } = countingAdapter();
    const provider = lazyProvider(anthropicConfig(), load);
    expect(await drain(provider)).toEqual([
      { type: "text_delta", text: "hi" },
      { type: "done", stopReason: "end_turn" },
    ]);
    expect(await drain(provider)).toHaveLength(2);
    expect(counts).toEqual({ loads: 1, created: 1 });
  });

  test("a failed load is the stream's final error event, not retryable, and the next stream loads again", async () => {
    let attempts = 0;
    const { load } = countingAdapter();
    const provider = lazyProvider(anthropicConfig(), async () => {
      attempts++;
      if (attempts === 1) throw new Error("Cannot find module '@anthropic-ai/sdk'");
      return load();
    });
    expect(await drain(provider)).toEqual([
      {
        type: "error",
        message: "could not load the anthropic adapter: Cannot find module '@anthropic-ai/sdk'",
        retryable: false,
      },
    ]);
    expect((await drain(provider)).at(-1)).toEqual({ type: "done", stopReason: "end_turn" });
    expect(attempts).toBe(2);
  });

  test("a stream cancelled while its adapter loads ends as cancelled", async () => {
    const abort = new AbortController();
    const provider = lazyProvider(anthropicConfig(), async () => {
      abort.abort();
      throw new Error("aborted");
    });
    const events: ProviderEvent[] = [];
    for await (const event of provider.stream(request, abort.signal)) events.push(event);
    expect(events).toEqual([{ type: "error", message: "cancelled", retryable: false }]);
  });
});
