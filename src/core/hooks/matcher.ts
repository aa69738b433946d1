/**
 * Claude Code's matcher rules. `"*"`, `""` or no matcher match everything; a value made only of
 * letters, digits, `_`, `-`, spaces, `,` and `|` is a list of exact names (split on `|` and `,`,
 * trimmed); anything else is a JavaScript regular expression tested unanchored. So `Edit|Write`
 * and `Edit, Write` are lists, `^Notebook` and `mcp__memory__.*` are patterns, and `mcp__memory`
 * is an exact name that matches no tool.
 */

export type Matcher = (value: string) => boolean;

const EXACT_FORM = /^[A-Za-z0-9_\- ,|]*$/;

export type CompiledMatcher = { ok: true; test: Matcher } | { ok: false; error: string };

export function compileMatcher(matcher: string | undefined): CompiledMatcher {
  if (matcher === undefined || matcher === "" || matcher === "*") return { ok: true, test: () => true };
  if (EXACT_FORM.test(matcher)) {
    const names = new Set(
      matcher
        .split(/[|,]/)
        .map((n) => n.trim())
        .filter((n) => n !== ""),
    );
    // A list with no names (e.g. " | ") matches everything, like an empty matcher.
    if (names.size === 0) return { ok: true, test: () => true };
    return { ok: true, test: (value) => names.has(value) };
  }
  try {
    const pattern = new RegExp(matcher);
    return { ok: true, test: (value) => pattern.test(value) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
