/**
 * The one "is this holder me?" check (src/journal/process-identity.ts): a process is this one only
 * when host, pid and start time all match, so another machine's process under the same pid, or a
 * process that reused this pid, is never taken for this one.
 */
import { describe, expect, test } from "bun:test";
import { isThisProcess, sameProcess, thisProcess } from "../../src/journal/process-identity.ts";

describe("is this process", () => {
  test("this process's host, pid and start time are this process", () => {
    expect(isThisProcess({ ...thisProcess() })).toBe(true);
  });

  test("the same pid on another machine is another process", () => {
    expect(isThisProcess({ ...thisProcess(), host: "another-machine" })).toBe(false);
  });

  test("the same pid on this machine with another start time is another process (a reused pid)", () => {
    expect(thisProcess().startTime).not.toBe("");
    expect(isThisProcess({ ...thisProcess(), startTime: `${thisProcess().startTime}0` })).toBe(false);
  });

  test("a row that names no host is not taken for a process that names one", () => {
    expect(isThisProcess({ pid: thisProcess().pid })).toBe(false);
  });

  test("a start time one side does not know leaves the decision to host and pid", () => {
    expect(sameProcess({ pid: 7, host: "a", startTime: "" }, { pid: 7, host: "a", startTime: "99" })).toBe(true);
    expect(sameProcess({ pid: 7, host: "a" }, { pid: 8, host: "a" })).toBe(false);
  });
});
