/**
 * The benchmark's provider: streams a given number of answer chunks, at full speed (no pauses)
 * or paced like a network provider, each stamped with the time it was handed to the engine, so
 * the client can tell how long the agent took to show it. Used by verbatim's live benchmark and
 * by its floor alike.
 */
import type { Provider, ProviderEvent } from "../../src/core/providers/types.ts";
import { now } from "./clock.ts";

/** The chunk count a benchmark agent streams per prompt (BENCH_CHUNKS, default 10,000). */
export const chunkCount = (env: Record<string, string | undefined> = process.env): number =>
  Number(env.BENCH_CHUNKS) > 0 ? Number(env.BENCH_CHUNKS) : 10_000;

/** Milliseconds between chunks (BENCH_PAUSE_MS; 0, the default, is full speed). */
export const chunkPause = (env: Record<string, string | undefined> = process.env): number =>
  Math.max(Number(env.BENCH_PAUSE_MS) || 0, 0);

/** Answer chunks of a realistic size (a word or two) whose first field is the stamp. */
export async function* stampedChunks(count: number, pauseMs = 0): AsyncGenerator<ProviderEvent> {
  for (let i = 0; i < count; i++) {
    // A paced chunk arrives on its own turn of the event loop, as a network read would.
    if (pauseMs > 0) await Bun.sleep(pauseMs);
    yield { type: "text_delta", text: `${now().toFixed(4)} word ` };
  }
  yield { type: "usage", inputTokens: 10, outputTokens: count * 2 };
  yield { type: "done", stopReason: "end_turn" };
}

export const stampedProvider = (count: number, pauseMs = 0): Provider => ({
  id: "bench",
  contextWindow: () => 200_000,
  stream: () => stampedChunks(count, pauseMs),
});

/**
 * The first step of each prompt starts `command` in the background (a Bash call with
 * run_in_background); the next streams `then`'s chunks, with the job's output recorded beside them.
 */
export function jobThenStamped(command: string, then: Provider): Provider {
  return {
    ...then,
    stream(request, signal) {
      if (request.messages.at(-1)?.role === "tool_results") return then.stream(request, signal);
      return (async function* (): AsyncGenerator<ProviderEvent> {
        const json = JSON.stringify({ command, run_in_background: true });
        yield { type: "tool_call_start", index: 0, providerCallId: "bench_job", name: "Bash" };
        yield { type: "tool_call_delta", index: 0, json };
        yield { type: "tool_call_end", index: 0 };
        yield { type: "done", stopReason: "tool_use" };
      })();
    },
  };
}
