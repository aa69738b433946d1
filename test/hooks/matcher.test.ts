/** Claude Code's matcher rules (hooks.md §4, acceptance test 12). */
import { describe, expect, test } from "bun:test";
import { compileMatcher } from "../../src/core/hooks/matcher.ts";

const matches = (matcher: string | undefined, value: string) => {
  const compiled = compileMatcher(matcher);
  if (!compiled.ok) throw new Error(compiled.error);
  return compiled.test(value);
};

describe("matchers", () => {
  test("a list of exact names, split on | or , and trimmed", () => {
    expect(matches("Edit|Write", "Write")).toBe(true);
    expect(matches("Edit, Write", "Edit")).toBe(true);
    expect(matches("Edit|Write", "NotebookEdit")).toBe(false);
    expect(matches("Bash", "Bash")).toBe(true);
    expect(matches("Bash", "BashOutput")).toBe(false);
  });

  test("anything else is a regular expression tested unanchored", () => {
    expect(matches("^Notebook", "NotebookEdit")).toBe(true);
    expect(matches("^Notebook", "Edit")).toBe(false);
    expect(matches("mcp__memory__.*", "mcp__memory__create_entities")).toBe(true);
    expect(matches("Edit.*", "NotebookEdit")).toBe(true);
  });

  test("mcp__memory is an exact name and matches no tool of that server", () => {
    expect(matches("mcp__memory", "mcp__memory__create_entities")).toBe(false);
  });

  test("*, the empty string and no matcher match everything", () => {
    for (const m of ["*", "", undefined]) expect(matches(m, "AnyTool")).toBe(true);
  });

  test("an invalid pattern is an error, not a crash", () => {
    const compiled = compileMatcher("[");
    expect(compiled.ok).toBe(false);
  });
});
