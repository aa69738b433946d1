/** `defined`: an object's fields without the undefined ones, for optional fields that must be absent. */
import { describe, expect, test } from "bun:test";
import { defined } from "../../src/shared/defined.ts";

describe("defined", () => {
  test("leaves out the keys whose value is undefined", () => {
    const result = defined({ a: 1, b: undefined, c: "x" });
    expect(Object.keys(result)).toEqual(["a", "c"]);
    expect("b" in result).toBe(false);
  });

  test("keeps null, 0, the empty string, false and NaN", () => {
    expect(defined({ n: null, z: 0, e: "", f: false, nan: Number.NaN })).toEqual({
      n: null,
      z: 0,
      e: "",
      f: false,
      nan: Number.NaN,
    });
    expect(Object.keys(defined({ n: null, z: 0, e: "", f: false }))).toEqual(["n", "z", "e", "f"]);
  });

  test("keeps the keys in their order, so a spread of it writes the same JSON as the conditional spreads it replaces", () => {
    const title: string | undefined = "t";
    const forkOf: { sessionId: string } | undefined = undefined;
    const size: number | undefined = 0;
    const spreads = {
      id: "s",
      ...(title !== undefined ? { title } : {}),
      ...(forkOf !== undefined ? { forkOf } : {}),
      ...(size !== undefined ? { size } : {}),
      last: true,
    };
    expect(JSON.stringify({ id: "s", ...defined({ title, forkOf, size }), last: true })).toBe(JSON.stringify(spreads));
  });

  test("returns a new object and leaves its argument as it was", () => {
    const fields = { a: 1, b: undefined };
    const result = defined(fields);
    expect(result).not.toBe(fields);
    expect(Object.keys(fields)).toEqual(["a", "b"]);
  });

  test("its type makes the fields that may be undefined optional and keeps the others required", () => {
    const maybe = (): number | undefined => undefined;
    const result: { a: string; b?: number } = defined({ a: "x", b: maybe() });
    const required: { a: string } = defined({ a: "x" });
    expect(result).toEqual({ a: "x" });
    expect(required.a).toBe("x");
  });
});
