/**
 * Hooks inside subagents: the same configured hooks fire for a subagent's tool calls, with
 * `agent_id` and `agent_type` set and the root's `session_id`; SubagentStart and SubagentStop
 * fire in place of SessionStart/UserPromptSubmit and Stop; a deny blocks the subagent's call.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { choose } from "../../src/client/view-client.ts";
import { connectInProcess, newSession, prompt } from "../support/acp-session.ts";
import { command, writeHooks } from "../support/hooks.ts";
import { sandbox } from "../support/workspace.ts";

/** Every payload a logging hook received, in order. */
const payloads = (path: string) =>
  readFileSync(path, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe("hooks inside a subagent", () => {
  test("tool hooks fire for the subagent's calls with agent_id and agent_type; SubagentStart and SubagentStop replace the session's events", async () => {
    const box = sandbox("scripted/subagent");
    const log = join(box.root, "hooks.jsonl");
    const logAll = [{ hooks: [command(`cat >> ${log}; echo >> ${log}`)] }];
    writeHooks(box, "claude-user", {
      SessionStart: logAll,
      UserPromptSubmit: logAll,
      PreToolUse: logAll,
      Stop: logAll,
      SubagentStart: logAll,
      SubagentStop: logAll,
    });
    const c = await connectInProcess(box.env);
    try {
      const { sessionId } = await newSession(c.ctx, box.workspace);
      expect((await prompt(c.ctx, sessionId, "Inspect the README")).stopReason).toBe("end_turn");
    } finally {
      await c.close();
    }
    const seen = payloads(log);
    expect(seen.map((p) => `${p.hook_event_name}${p.tool_name ? `:${p.tool_name}` : ""}`)).toEqual([
      "SessionStart",
      "UserPromptSubmit",
      "PreToolUse:Task",
      "SubagentStart",
      "PreToolUse:Read",
      "SubagentStop",
      "Stop",
    ]);
    const inside = seen.filter((p) => p.agent_id !== undefined);
    expect(inside.map((p) => p.hook_event_name)).toEqual(["SubagentStart", "PreToolUse", "SubagentStop"]);
    for (const p of inside) {
      expect(p.agent_type).toBe("general-purpose");
      expect(p.agent_id).not.toBe(p.session_id);
      expect(p.session_id).toBe(seen[0]!.session_id as string);
    }
    expect(seen.filter((p) => p.agent_id === undefined).every((p) => p.hook_event_name !== "SubagentStart")).toBe(true);
  });

  test("a PreToolUse deny blocks a Bash call inside a subagent", async () => {
    const box = sandbox("scripted/subagent");
    const reason = "no commands in subagents";
    const deny = `echo '${JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: reason } })}'`;
    writeHooks(box, "claude-user", { PreToolUse: [{ matcher: "Bash", hooks: [command(deny)] }] });
    const c = await connectInProcess(box.env, { policy: choose("allow_once") });
    try {
      const { sessionId } = await newSession(c.ctx, box.workspace);
      await prompt(c.ctx, sessionId, "Inspect the README and run a command");
      const answer = JSON.stringify(c.client.view(sessionId).messages);
      expect(answer).toContain("The command did not run: Bash was blocked by a hook");
    } finally {
      await c.close();
    }
  });
});
