/**
 * Where a request is made smaller: a share of the model's context window, from the environment
 * (VERBATIM_AUTOCOMPACT_PCT, else Claude Code's CLAUDE_AUTOCOMPACT_PCT_OVERRIDE), else the config
 * files' `autoCompactPct`, else 80 percent.
 */
export const DEFAULT_AUTOCOMPACT_PCT = 80;

/** The threshold's share of the window, in percent; a variable that is no percentage is reported and passed over. */
export function autoCompactPct(
  env: Record<string, string | undefined>,
  configured: number | undefined,
): { pct: number; warnings: string[] } {
  const warnings: string[] = [];
  for (const name of ["VERBATIM_AUTOCOMPACT_PCT", "CLAUDE_AUTOCOMPACT_PCT_OVERRIDE"]) {
    const raw = env[name]?.trim();
    if (!raw) continue;
    const pct = Number(raw);
    if (Number.isFinite(pct) && pct > 0 && pct <= 100) return { pct, warnings };
    warnings.push(`${name}=${raw} is not a percentage above 0 and at most 100; it is not used.`);
  }
  return { pct: configured ?? DEFAULT_AUTOCOMPACT_PCT, warnings };
}

/** The threshold in tokens for a window of `size` tokens. */
export function thresholdTokens(size: number, pct: number): number {
  return Math.floor((size * pct) / 100);
}
