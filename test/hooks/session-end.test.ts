/**
 * SessionEnd hooks hold up a session's close at most 60 seconds (Claude Code's cap), whatever
 * their own timeouts; the cap is a setting so that this test need not wait a minute.
 */
import { describe, expect, test } from "bun:test";
import type { Fact } from "../../src/journal/facts/index.ts";
import { SessionHooks } from "../../src/core/hooks/session-hooks.ts";
import { hookSettings } from "../../src/core/hooks/settings.ts";
import { SessionStateFold } from "../../src/replay/state.ts";
import { command, writeHooks } from "../support/hooks.ts";
import { sandbox } from "../support/workspace.ts";

describe("SessionEnd", () => {
  test("a hook with a long timeout is stopped at the cap, and the close goes on", async () => {
    const box = sandbox("scripted/plain");
    writeHooks(box, "claude-user", { SessionEnd: [{ hooks: [command("sleep 30", { timeout: 600 })] }] });
    const state = new SessionStateFold();
    state.cwd = box.workspace;
    const facts: Fact[] = [];
    const hooks = new SessionHooks(
      { ...hookSettings(box.env), sessionEndCapSec: 1, graceMs: 200 },
      {
        sessionId: "ses_end",
        state,
        record: async (fact) => {
          facts.push(fact);
        },
        preview: async () => [],
      },
    );
    await hooks.beginTurn(
      { turnId: "turn_1", promptId: "msg_1", prompt: "hi", model: "scripted/plain" },
      new AbortController().signal,
    );
    const started = performance.now();
    await hooks.close();
    // Generous: the hook sleeps 30 s; capped at 1 s, the close ends within seconds.
    expect(performance.now() - started).toBeLessThan(20_000);
    const ended = facts.filter((f) => f.kind === "hook_outcome" && f.event === "SessionEnd" && f.status === "settled");
    expect(JSON.stringify(ended)).toContain("timed out after 1 s");
  }, 40_000);
});
