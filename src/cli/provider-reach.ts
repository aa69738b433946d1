/**
 * Whether a configured provider answers, for `verbatim doctor`: its model list asked with its own
 * key and headers, a short timeout and no retries (src/core/providers/model-list.ts, the probe
 * `setup` uses too, in the same words). Nothing is sent to a model and nothing is recorded.
 */
import { listModels } from "../core/providers/model-list.ts";
import type { ResolvedProvider } from "../core/providers/provider-config.ts";
import { WIRES } from "../core/providers/wire-table.ts";

const REACH_TIMEOUT_MS = 5000;

export type Reach = { ok: boolean; message: string };

export async function reachProvider(p: ResolvedProvider, timeoutMs = REACH_TIMEOUT_MS): Promise<Reach> {
  const answer = await listModels(p, timeoutMs);
  return answer.ok ? { ok: true, message: `${p.baseUrl ?? WIRES[p.kind].defaultUrl} answers` } : answer;
}
