/**
 * The benchmark's provider: streams a given number of answer chunks at full speed (no pauses),
 * each stamped with the time it was handed to the engine, so the client can tell how long the
 * agent took to show it. Used by verbatim's live benchmark and by its floor alike.
 */
import type { Provider, ProviderEvent } from "../../src/core/providers/types.ts";
import { now } from "./clock.ts";

/** The chunk count a benchmark agent streams per prompt (BENCH_CHUNKS, default 10,000). */
export const chunkCount = (env: Record<string, string | undefined> = process.env): number =>
  Number(env.BENCH_CHUNKS) > 0 ? Number(env.BENCH_CHUNKS) : 10_000;

/** Answer chunks of a realistic size (a word or two) whose first field is the stamp. */
export async function* stampedChunks(count: number): AsyncGenerator<ProviderEvent> {
  for (let i = 0; i < count; i++) yield { type: "text_delta", text: `${now().toFixed(4)} word ` };
  yield { type: "usage", inputTokens: 10, outputTokens: count * 2 };
  yield { type: "done", stopReason: "end_turn" };
}

export const stampedProvider = (count: number): Provider => ({
  id: "bench",
  contextWindow: () => 200_000,
  stream: () => stampedChunks(count),
});
