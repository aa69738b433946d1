/**
 * What a client terminal printed since the agent last looked: `terminal/output` answers with all
 * the terminal kept, cut from the start past its byte limit.
 */
import { describe, expect, test } from "bun:test";
import { terminalOutputDelta } from "../../src/core/tools/shell/terminal-output-delta.ts";

describe("a client terminal's new output", () => {
  test("while the terminal keeps everything, the new output is what follows the text seen", () => {
    expect(terminalOutputDelta("", "one\n")).toBe("one\n");
    expect(terminalOutputDelta("one\n", "one\ntwo\n")).toBe("two\n");
    expect(terminalOutputDelta("one\ntwo\n", "one\ntwo\n")).toBe("");
  });

  test("once the client cut the start, the new output is what follows the end of the text seen", () => {
    // Seen: 0123456789; the terminal now keeps 10 characters: 56789 then abcde.
    expect(terminalOutputDelta("0123456789", "56789abcde")).toBe("abcde");
    expect(terminalOutputDelta("tick1\ntick2\n", "ck2\ntick3\n")).toBe("tick3\n");
  });

  test("when nothing seen is left (more than the limit printed between two looks), the whole output is new", () => {
    expect(terminalOutputDelta("0123456789", "abcdefghij")).toBe("abcdefghij");
  });
});
