/**
 * verbatim as it runs for an editor (the same stdio server, journal, projection and sender),
 * with one change for the live benchmark: its only model is the stamped benchmark provider,
 * which streams BENCH_CHUNKS answer chunks, at full speed or BENCH_PAUSE_MS apart. With BENCH_JOB
 * (a shell command), the prompt's first step starts that command in the background (Bash with
 * run_in_background), and the chunks stream while the job's output is recorded beside them.
 */
import { serveStdio } from "../../src/acp/stdio.ts";
import { engineDeps } from "../../src/core/engine-deps.ts";
import type { ProviderCatalog } from "../../src/core/providers/catalog.ts";
import { chunkCount, chunkPause, jobThenStamped, stampedProvider } from "../lib/stamped-provider.ts";

const stamped = stampedProvider(chunkCount(), chunkPause());
const provider = process.env.BENCH_JOB ? jobThenStamped(process.env.BENCH_JOB, stamped) : stamped;
const catalog: ProviderCatalog = {
  setupHint: "",
  models: () => [{ ref: { provider: "bench", model: "stamped" }, name: "Benchmark: stamped chunks" }],
  defaultModel: () => ({ provider: "bench", model: "stamped" }),
  provider: (ref) => (ref.provider === "bench" ? provider : undefined),
  setupMethods: () => [],
  reload: () => {},
  defaults: () => ({}),
  warnings: () => [],
  secrets: () => ({ names: [], values: [] }),
};

serveStdio({ deps: { ...engineDeps(), catalog, catalogFor: () => catalog } }).then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`live agent: ${String(error)}\n`);
    process.exit(1);
  },
);
