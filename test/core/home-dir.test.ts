/** The home directory config files and the journal live under: $HOME, else the account's. */
import { describe, expect, test } from "bun:test";
import { homedir } from "node:os";
import { homeDir } from "../../src/shared/home-dir.ts";

describe("the home directory", () => {
  test("is $HOME when it is set", () => {
    expect(homeDir({ HOME: "/home/someone" })).toBe("/home/someone");
  });

  test("is the account's home directory when $HOME is unset or empty", () => {
    expect(homeDir({})).toBe(homedir());
    expect(homeDir({ HOME: "" })).toBe(homedir());
  });
});
