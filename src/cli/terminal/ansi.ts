/**
 * Terminal styling: whether to use it (a terminal, NO_COLOR unset or empty, TERM not dumb) and
 * the SGR codes verbatim wraps around its own text. Codes are only ever added around text that
 * went through `visible`, never taken from content.
 */
export const SGR = {
  reset: "\x1b[0m",
  bold: "\x1b[1m",
  dim: "\x1b[2m",
  red: "\x1b[31m",
  green: "\x1b[32m",
  yellow: "\x1b[33m",
  magenta: "\x1b[35m",
  cyan: "\x1b[36m",
} as const;

/** Whether output on `stream` gets colour: a terminal, and neither NO_COLOR (https://no-color.org) nor TERM=dumb. */
export function colourOn(stream: { isTTY?: boolean }, env: Record<string, string | undefined> = process.env): boolean {
  if (stream.isTTY !== true) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  return env.TERM !== "dumb";
}

/** `text` wrapped in `codes` line by line, so that no style runs across a line break (or into another stream's line). */
export function wrapLines(text: string, codes: string): string {
  if (!codes) return text;
  return text
    .split("\n")
    .map((l) => (l ? `${codes}${l}${SGR.reset}` : l))
    .join("\n");
}
