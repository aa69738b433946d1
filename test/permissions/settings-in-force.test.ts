/**
 * Which recorded settings rules decide: the last this host recorded since the session was last
 * imported. A reading from another machine, or one from before an import (a file from
 * elsewhere), never decides; the process that continues the session records its own. A load from
 * the replay cache takes none from the cache.
 */
import { describe, expect, test } from "bun:test";
import { settingsInForce } from "../../src/core/permissions/settings-rules.ts";
import type { Fact } from "../../src/journal/facts/index.ts";
import { adoptAuthority } from "../../src/replay/authority.ts";
import { restoreFold, snapshotFold } from "../../src/replay/fold-snapshot.ts";
import { SessionStateFold } from "../../src/replay/state.ts";

const reading = (host: string): Fact => ({
  kind: "permission_settings_read",
  host,
  cwd: "/w",
  home: "/h",
  trusted: false,
  files: [
    {
      path: "/h/.claude/settings.json",
      scope: "user",
      sha256: "0".repeat(64),
      anchor: "/h/.claude",
      allow: ["Bash(*)"],
      ask: [],
      deny: [],
      additionalDirectories: [],
    },
  ],
  unread: [],
});
const imported: Fact = { kind: "session_imported", additionalDirectories: [], rules: [], grantedDirectories: [] };

function fold(...facts: Fact[]): SessionStateFold {
  const state = new SessionStateFold();
  facts.forEach((fact, i) => state.apply(fact, i + 1));
  return state;
}

describe("the settings rules in force", () => {
  test("are this host's last reading", () => {
    expect(settingsInForce(fold(reading("here")), "here")?.files[0]?.allow).toEqual(["Bash(*)"]);
  });
  test("are none when the last reading is another host's", () => {
    expect(settingsInForce(fold(reading("here"), reading("elsewhere")), "here")).toBeUndefined();
  });
  test("are none when the reading came before an import, until this host records one after it", () => {
    expect(settingsInForce(fold(reading("here"), imported), "here")).toBeUndefined();
    expect(settingsInForce(fold(reading("here"), imported, reading("here")), "here")).toBeDefined();
  });
  test("are none in a fold restored from the replay cache, whatever the cached state says", () => {
    const restored = new SessionStateFold();
    restoreFold(restored, snapshotFold(fold(reading("here"))));
    adoptAuthority(restored, []);
    expect(settingsInForce(restored, "here")).toBeUndefined();
  });
});
