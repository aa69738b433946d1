/** A session's facts as `verbatim export` writes them, decoded with the import's own reader (payloads restored). */
import { parseExport } from "../../src/journal/export-format.ts";
import type { Fact, FactOf } from "../../src/journal/facts/index.ts";
import { runCli } from "./cli-process.ts";

export async function exportedFacts(
  env: Record<string, string>,
  sessionId: string,
): Promise<(Fact & { at: string })[]> {
  const r = await runCli(["export", sessionId], env);
  if (r.code !== 0) throw new Error(`verbatim export ${sessionId} failed: ${r.stderr}`);
  return parseExport(r.stdout).records.map(({ fact, at }) => ({ ...fact, at }));
}

/** The facts of one kind, in order. */
export const ofKind = <K extends Fact["kind"]>(facts: Fact[], kind: K) =>
  facts.filter((f): f is FactOf<K> => f.kind === kind);
