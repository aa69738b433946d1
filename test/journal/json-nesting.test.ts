/** The nesting count an import checks each line with before parsing it (journal/json-nesting.ts). */
import { describe, expect, test } from "bun:test";
import { nestsDeeperThan } from "../../src/journal/json-nesting.ts";

const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

describe("nestsDeeperThan", () => {
  test("counts arrays and objects inside one another, up to the limit and past it", () => {
    expect(nestsDeeperThan(nested(10), 10)).toBe(false);
    expect(nestsDeeperThan(nested(11), 10)).toBe(true);
    expect(nestsDeeperThan(`{"a":${nested(5)},"b":{"c":{"d":{"e":{"f":{}}}}}}`, 6)).toBe(false);
    expect(nestsDeeperThan(`{"a":${nested(5)},"b":{"c":{"d":{"e":{"f":{"g":[]}}}}}}`, 6)).toBe(true);
  });

  test("brackets inside strings, escaped quotes and backslashes included, are not counted", () => {
    const text = JSON.stringify({ s: `${"[".repeat(50)}"\\${"{".repeat(50)}`, t: "\\", u: nested(3) });
    expect(nestsDeeperThan(text, 4)).toBe(false);
    expect(nestsDeeperThan(JSON.stringify({ s: 'a\\"[[[[[[', deep: JSON.parse(nested(5)) }), 4)).toBe(true);
  });
});
