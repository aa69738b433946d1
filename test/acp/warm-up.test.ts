/**
 * The engine's warm-up after `initialize` (src/acp/warm-up.ts): its steps run one per turn of the
 * event loop, in order, until the connection closes; a step that fails does not stop the rest;
 * and each of the SDK's first parses it runs is of a request the SDK accepts (so that it builds
 * and compiles what the request's own parse then uses).
 */
import { describe, expect, test } from "bun:test";
import { collectUnlessAsked, FIRST_PARSES, warmUp } from "../../src/acp/warm-up.ts";
import { until } from "../support/acp-session.ts";

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("the warm-up after initialize", () => {
  test("runs its steps in order, each on a turn of the event loop of its own", async () => {
    const ran: string[] = [];
    warmUp([() => ran.push("a"), () => ran.push("b"), () => ran.push("c")], () => false);
    expect(ran).toEqual([]);
    await turn();
    expect(ran).toEqual(["a"]);
    await turn();
    expect(ran).toEqual(["a", "b"]);
    await until(() => ran.length === 3, "the last step");
    expect(ran).toEqual(["a", "b", "c"]);
  });

  test("stops once the connection is closed", async () => {
    const ran: string[] = [];
    let closed = false;
    const closing = () => {
      closed = true;
      ran.push("b");
    };
    warmUp([() => ran.push("a"), closing, () => ran.push("c")], () => closed);
    await until(() => ran.includes("b"), "the step that closes");
    for (let i = 0; i < 5; i++) await turn();
    expect(ran).toEqual(["a", "b"]);
  });

  test("a step that throws is skipped, and the rest run", async () => {
    const ran: string[] = [];
    warmUp(
      [
        () => {
          throw new Error("no journal");
        },
        () => ran.push("after"),
      ],
      () => false,
    );
    await until(() => ran.length === 1, "the step after the failure");
    expect(ran).toEqual(["after"]);
  });

  test("each of the SDK's first parses is of a request the SDK accepts", () => {
    expect(FIRST_PARSES.length).toBeGreaterThan(0);
    for (const parse of FIRST_PARSES) expect(parse().success).toBe(true);
  });

  test("its last steps run after the SDK's first parses", async () => {
    const ran: string[] = [];
    let turns = 0;
    const counting = () => {
      turns++;
      if (!ran.includes("last")) setImmediate(counting);
    };
    setImmediate(counting);
    warmUp([() => ran.push("first")], () => false, [() => ran.push("last")]);
    await until(() => ran.length === 2, "the last step");
    expect(ran).toEqual(["first", "last"]);
    expect(turns).toBeGreaterThanOrEqual(FIRST_PARSES.length + 1);
  });

  test("the collection runs only while no request has come", () => {
    let asked = false;
    let collections = 0;
    const collect = collectUnlessAsked(
      () => asked,
      () => collections++,
    );
    collect();
    expect(collections).toBe(1);
    asked = true;
    collect();
    expect(collections).toBe(1);
  });
});
