/** The `sandbox` keys in force (merged from the recorded settings files) and the runtime's violation lines read as facts. */
import { describe, expect, test } from "bun:test";
import type { PermissionSettingsFile, PermissionSettingsRead, SandboxSettings } from "../../src/journal/facts/index.ts";
import { sandboxInForce } from "../../src/core/sandbox/sandbox-settings.ts";
import { parseViolation } from "../../src/core/sandbox/violations.ts";

const file = (scope: PermissionSettingsFile["scope"], sandbox: SandboxSettings): PermissionSettingsFile => ({
  path: `/${scope}/settings.json`,
  scope,
  sha256: "0",
  anchor: "/",
  allow: [],
  ask: [],
  deny: [],
  additionalDirectories: [],
  sandbox,
});
const read = (trusted: boolean, ...files: PermissionSettingsFile[]): PermissionSettingsRead => ({
  kind: "permission_settings_read",
  host: "h",
  cwd: "/w",
  home: "/home/u",
  trusted,
  files,
  unread: [],
});

describe("the sandbox keys in force", () => {
  test("with no settings the sandbox is on, auto-allowing, with no host allowed", () => {
    expect(sandboxInForce(undefined)).toMatchObject({
      enabled: true,
      autoAllowBashIfSandboxed: true,
      allowUnsandboxedCommands: true,
      allowedDomains: [],
    });
  });

  test("an explicit enabled: false turns it off and names the file", () => {
    expect(sandboxInForce(read(false, file("user", { enabled: false })))).toMatchObject({
      enabled: false,
      disabledBy: "/user/settings.json",
    });
  });

  test("the highest file's scalar wins; lists merge", () => {
    const inForce = sandboxInForce(
      read(
        true,
        file("user", { enabled: false, network: { allowedDomains: ["a.com"] } }),
        file("local", { enabled: true, network: { allowedDomains: ["b.com"] } }),
      ),
    );
    expect(inForce.enabled).toBe(true);
    expect(inForce.allowedDomains).toEqual(["b.com", "a.com"]);
  });

  test("an untrusted project can narrow (deny lists) but not widen (off, hosts, writes)", () => {
    const inForce = sandboxInForce(
      read(
        false,
        file("project", {
          enabled: false,
          filesystem: { allowWrite: ["/etc"], denyRead: ["/w/secret"] },
          network: { allowedDomains: ["evil.com"], deniedDomains: ["x.com"] },
        }),
      ),
    );
    expect(inForce).toMatchObject({ enabled: true, allowWrite: [], allowedDomains: [], denyRead: ["/w/secret"] });
    expect(inForce.deniedDomains).toEqual(["x.com"]);
  });
});

describe("the runtime's violation lines", () => {
  test("a refused write: its system call and path", () => {
    expect(parseViolation("deny openat /etc/x")).toEqual({
      type: "write",
      operation: "openat",
      path: "/etc/x",
      line: "deny openat /etc/x",
    });
  });

  test("a refused connection: its host and port, the reason left in the line", () => {
    const line = "deny network-outbound example.com:443 (host is not on the allow list)";
    expect(parseViolation(line)).toEqual({ type: "network", host: "example.com", port: 443, line });
    expect(parseViolation("deny network-outbound [::1]:80 (user denied)")).toMatchObject({ host: "::1", port: 80 });
  });

  test("anything else is kept as its line", () => {
    expect(parseViolation("something new")).toEqual({ type: "other", line: "something new" });
  });
});
