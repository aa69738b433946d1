/**
 * Checking a provider before its settings are saved: its model list, asked with the key given
 * (src/core/providers/model-list.ts, the probe `doctor` uses too, in the same words). It proves
 * the server is reachable and the key is accepted.
 */
import type { ProviderKind } from "../../core/config/settings-schema.ts";
import { listModels, type ModelList } from "../../core/providers/model-list.ts";
import { defined } from "../../shared/defined.ts";

export type CheckResult = ModelList;

/** Asks the server at `baseUrl` for its models, within `timeoutMs`. Never throws. */
export function checkProvider(
  kind: ProviderKind,
  baseUrl: string,
  apiKey: string | undefined,
  timeoutMs = 15_000,
): Promise<CheckResult> {
  return listModels({ kind, baseUrl, headers: {}, ...defined({ apiKey }) }, timeoutMs);
}
