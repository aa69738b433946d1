/**
 * Hooks in the engine, through the real ACP path in process: where each event fires, what its
 * outcome changes (the call that runs, the prompt, the end of the turn), what the card and the
 * model are given, and that untrusted project hooks are skipped and reported.
 */
import * as acp from "@agentclientprotocol/sdk";
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { choose } from "../../src/client/view-client.ts";
import type { Fact } from "../../src/journal/facts/index.ts";
import { journalFile } from "../../src/journal/paths.ts";
import { SqliteJournal } from "../../src/journal/sqlite-store.ts";
import { conversation } from "../../src/replay/conversation.ts";
import { connectInProcess, newSession, prompt, type ClientOptions } from "../support/acp-session.ts";
import { outcomeOf, textOf } from "../support/cards.ts";
import {
  cardHooks,
  command,
  noticeMessages,
  script,
  standaloneHooks,
  trustWorkspace,
  writeHooks,
  type HooksConfig,
} from "../support/hooks.ts";
import { allGone, pidsFrom } from "../support/processes.ts";
import { sandbox, type Sandbox } from "../support/workspace.ts";
import { cards } from "../parity/harness.ts";

/** Runs `prompts` in one new session of an in-process agent; returns the box, the view and the journal. */
async function session(box: Sandbox, prompts: string[], options: ClientOptions = {}) {
  const agent = await connectInProcess(box.env, options);
  const { sessionId } = await newSession(agent.ctx, box.workspace);
  const stopReasons: string[] = [];
  try {
    for (const text of prompts) stopReasons.push((await prompt(agent.ctx, sessionId, text)).stopReason);
  } finally {
    await agent.close();
  }
  const journal = new SqliteJournal(journalFile(box.home));
  const facts: Fact[] = [...journal.read(sessionId)].map((r) => r.fact);
  journal.close();
  return { sessionId, view: agent.client.view(sessionId), facts, stopReasons, client: agent.client };
}

function trustedBox(model: string, hooks: HooksConfig): Sandbox {
  const box = sandbox(model);
  writeHooks(box, "claude-project", hooks);
  trustWorkspace(box);
  return box;
}

const deny = (reason: string) =>
  `echo '${JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: reason } })}'`;

const toolResults = (facts: Fact[]) =>
  conversation(facts).flatMap((m) => (m.role === "tool_results" ? m.results.map((r) => r.text) : []));

describe("PreToolUse", () => {
  test("a deny blocks the call: it never runs, and its card ends failed with the hook's reason", async () => {
    const box = trustedBox("scripted/command", {
      PreToolUse: [{ matcher: "Bash", hooks: [command(deny("no writing files here"))] }],
    });
    const { view, client, facts, sessionId } = await session(box, [`touch ${join(box.root, "marker")}`]);
    expect(existsSync(join(box.root, "marker"))).toBe(false);
    const [card] = cards(view);
    expect(card?.status).toBe("failed");
    expect(outcomeOf(card)).toEqual({ by: "hook", reason: "no writing files here" });
    expect(textOf(card?.content)).toContain("Hook PreToolUse: denied the call — no writing files here.");
    expect(textOf(card?.content)).toContain("Not run: blocked by a hook — no writing files here.");
    const [outcome] = cardHooks(card);
    expect(outcome).toMatchObject({
      event: "PreToolUse",
      decision: "deny",
      revision: 2,
      status: "settled",
      toolCallId: card?.toolCallId,
      originSessionId: sessionId,
    });
    expect(outcome?.outcomeId).toMatch(/^ho_/);
    expect(outcome?.runs[0]?.hookId).toMatch(/^hk_/);
    expect(client.permissionRequests).toHaveLength(0);
    // The model is told why, framed as hook text.
    expect(toolResults(facts)[0]).toContain("Bash was blocked by a hook and did not run");
    expect(toolResults(facts)[0]).toContain(
      '<hook_context source="PreToolUse hooks">\nno writing files here\n</hook_context>',
    );
  });

  test("the payload's tool_use_id is verbatim's own call id, the card's", async () => {
    const box = sandbox("scripted/command");
    const payload = join(box.root, "payload.json");
    writeHooks(box, "claude-user", { PreToolUse: [{ matcher: "Bash", hooks: [command(`cat > ${payload}`)] }] });
    const { view } = await session(box, ["echo hi"]);
    const sent = JSON.parse(readFileSync(payload, "utf8")) as Record<string, unknown>;
    expect(sent.tool_use_id).toBe(cards(view)[0]?.toolCallId);
    expect(sent.tool_use_id).toMatch(/^call_/);
  });

  test("an updatedInput rewrite runs the rewritten input, and the card shows it", async () => {
    const out = (name: string) => join(sandbox().root, name);
    const target = out("out.txt");
    const rewrite = JSON.stringify({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "allow",
        updatedInput: { command: `echo rewritten > ${target}`, description: "rewritten by a hook" },
      },
    });
    const box = trustedBox("scripted/command", {
      PreToolUse: [{ matcher: "Bash", hooks: [command(`echo '${rewrite}'`)] }],
    });
    const { view, client } = await session(box, [`echo original > ${target}`]);
    expect(readFileSync(target, "utf8")).toBe("rewritten\n");
    const [card] = cards(view);
    expect(card?.status).toBe("completed");
    expect(card?.rawInput).toEqual({ command: `echo rewritten > ${target}`, description: "rewritten by a hook" });
    expect(card?.title).toBe(`echo rewritten > ${target}`);
    expect(cardHooks(card)[0]?.inputRewritten).toEqual({
      byHookId: cardHooks(card)[0]!.runs[0]!.hookId,
      conflictingHookIds: [],
    });
    expect(textOf(card?.content)).toContain("Input rewritten by");
    // The hook's allow judged its own rewrite: nobody was asked.
    expect(client.permissionRequests).toHaveLength(0);
  });

  test("two rewrites resolve in configuration order whatever their finish order; the loser is a conflict", async () => {
    const target = join(sandbox().root, "out.txt");
    const rewrite = (text: string) =>
      `'${JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: { command: `echo ${text} > ${target}` } } })}'`;
    const box = trustedBox("scripted/command", {
      PreToolUse: [
        {
          matcher: "Bash",
          hooks: [command(`sleep 0.3; echo ${rewrite("first")}`), command(`echo ${rewrite("second")}`)],
        },
      ],
    });
    const { view } = await session(box, ["echo model", "echo model", "echo model"]);
    for (const card of cards(view)) {
      const [outcome] = cardHooks(card);
      expect(outcome?.runs.map((r) => r.command.startsWith("sleep"))).toEqual([true, false]);
      expect(outcome?.inputRewritten?.byHookId).toBe(outcome?.runs[0]?.hookId);
      expect(outcome?.inputRewritten?.conflictingHookIds).toEqual([outcome!.runs[1]!.hookId]);
    }
    expect(readFileSync(target, "utf8")).toBe("first\n");
  });

  test("exit 2 blocks; exit 1 is an error shown on the card, and the call runs", async () => {
    const blocked = join(sandbox().root, "blocked");
    const ran = join(sandbox().root, "ran");
    const box = trustedBox("scripted/command", {
      PreToolUse: [
        {
          matcher: "Bash",
          hooks: [command(`grep -q blocked && { echo 'exit two' >&2; exit 2; }; echo 'exit one' >&2; exit 1`)],
        },
      ],
    });
    const { view } = await session(box, [`touch ${blocked}`, `touch ${ran}`]);
    const [first, second] = cards(view);
    expect(existsSync(blocked)).toBe(false);
    expect(outcomeOf(first)).toEqual({ by: "hook", reason: "exit two" });
    expect(existsSync(ran)).toBe(true);
    expect(second?.status).toBe("completed");
    expect(cardHooks(second)[0]?.runs[0]).toMatchObject({ status: "failed", exitCode: 1 });
    expect(textOf(second?.content)).toContain("exited 1 (not a block: only exit 2 blocks): exit one");
  });

  test("invalid JSON output is a reported error, not a crash; the call goes on", async () => {
    const box = trustedBox("scripted/command", {
      PreToolUse: [{ matcher: "Bash", hooks: [command(`echo '{"hookSpecificOutput": {'`)] }],
    });
    const { view, stopReasons } = await session(box, ["echo fine"]);
    expect(stopReasons).toEqual(["end_turn"]);
    const [card] = cards(view);
    expect(card?.status).toBe("completed");
    expect(textOf(card?.content)).toContain("not valid JSON");
  });

  test("a hostile payload reaches the hook intact and cannot forge a field", async () => {
    const hostile = `echo "quoted" 'single' \\ back\nnew line\ttab \u0001\u001b[31m \u2028 \u2029 ", "hook_event_name": "Stop", "session_id": "forged`;
    const box = sandbox("scripted/command");
    const payload = join(box.root, "payload.json");
    writeHooks(box, "claude-user", {
      PreToolUse: [{ matcher: "Bash", hooks: [command(`cat > ${payload}; ${deny("inspected")}`)] }],
    });
    const { sessionId } = await session(box, [hostile]);
    const sent = JSON.parse(readFileSync(payload, "utf8")) as Record<string, unknown>;
    expect((sent.tool_input as { command: string }).command).toBe(hostile);
    expect(sent.hook_event_name).toBe("PreToolUse");
    expect(sent.session_id).toBe(sessionId);
    expect(Object.keys(sent).sort()).toEqual([
      "cwd",
      "hook_event_name",
      "permission_mode",
      "prompt_id",
      "session_id",
      "tool_input",
      "tool_name",
      "tool_use_id",
      "transcript_path",
      "turn_id",
    ]);
  });

  test("allow + rewrite from one hook, ask from another: the user is asked about the rewritten input, which runs; PostToolUse sees the original", async () => {
    const target = join(sandbox().root, "out.txt");
    const rewrite = JSON.stringify({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "allow",
        updatedInput: { command: `echo rewritten > ${target}` },
      },
    });
    const ask = JSON.stringify({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "ask",
        permissionDecisionReason: "a human should look",
      },
    });
    const box = sandbox("scripted/command");
    const post = join(box.root, "post.json");
    writeHooks(box, "claude-user", {
      PreToolUse: [{ matcher: "Bash", hooks: [command(`echo '${rewrite}'`), command(`echo '${ask}'`)] }],
      PostToolUse: [{ matcher: "Bash", hooks: [command(`cat > ${post}`)] }],
    });
    const { client, view } = await session(box, [`echo original > ${target}`]);
    expect(client.permissionRequests).toHaveLength(1);
    expect(client.permissionRequests[0]?.toolCall.rawInput).toEqual({ command: `echo rewritten > ${target}` });
    expect(readFileSync(target, "utf8")).toBe("rewritten\n");
    expect(cardHooks(cards(view)[0])[0]).toMatchObject({ decision: "ask", reason: "a human should look" });
    const sent = JSON.parse(readFileSync(post, "utf8")) as Record<string, unknown>;
    expect(sent.tool_input).toEqual({ command: `echo rewritten > ${target}` });
    expect(sent.original_tool_input).toEqual({
      command: `echo original > ${target}`,
      description: "Run the requested command",
    });
  });

  test("one call, two hooks: card, one running outcome with both runs, one settled outcome, then the result, all with the call's id; ids are stable per handler, fresh per run", async () => {
    const box = sandbox("scripted/command");
    writeHooks(box, "claude-user", { PreToolUse: [{ matcher: "Bash", hooks: [command("exit 0"), command("true")] }] });
    const { facts } = await session(box, ["echo one", "echo two"]);
    const firstCall = facts.findIndex((f) => f.kind === "tool_call_announced");
    const toolCallId = (facts[firstCall] as { toolCallId: string }).toolCallId;
    const ofCall = facts
      .slice(firstCall)
      .filter((f) => "toolCallId" in f && f.toolCallId === toolCallId && f.kind !== "tool_call_progressed");
    expect(ofCall.map((f) => (f.kind === "hook_outcome" ? `hook_outcome ${f.status}` : f.kind))).toEqual([
      "tool_call_announced",
      "hook_outcome running",
      "hook_outcome settled",
      "permission_ruled",
      "permission_requested",
      "permission_answered",
      "tool_call_started",
      "tool_call_finished",
    ]);
    const outcomes = facts.filter((f): f is Extract<Fact, { kind: "hook_outcome" }> => f.kind === "hook_outcome");
    const [running, settled] = outcomes;
    expect(running?.runs.map((r) => r.status)).toEqual(["running", "running"]);
    expect(settled?.outcomeId).toBe(running?.outcomeId);
    expect([running?.revision, settled?.revision]).toEqual([1, 2]);
    const secondTurn = outcomes.filter((o) => o.status === "settled")[1];
    expect(secondTurn?.runs.map((r) => r.hookId)).toEqual(settled?.runs.map((r) => r.hookId));
    expect(secondTurn?.runs[0]?.hookRunId).not.toBe(settled?.runs[0]?.hookRunId);
    expect(secondTurn?.outcomeId).not.toBe(settled?.outcomeId);
  });

  test("continue: false stops the turn: the call is refused and no further model step runs", async () => {
    const box = trustedBox("scripted/command", {
      PreToolUse: [{ hooks: [command(`echo '{"continue": false, "stopReason": "budget spent"}'`)] }],
    });
    const { view, facts, stopReasons } = await session(box, ["echo hi"]);
    expect(stopReasons).toEqual(["end_turn"]);
    expect(outcomeOf(cards(view)[0])).toEqual({ by: "hook", reason: "budget spent" });
    expect(facts.filter((f) => f.kind === "step_ended")).toHaveLength(1);
  });
});

describe("cancel", () => {
  test("a cancel while a PreToolUse hook runs kills its process group; the call never runs and nobody is asked", async () => {
    const box = sandbox("scripted/command");
    const pidFile = join(box.root, "hook.pid");
    const marker = join(box.root, "marker");
    writeHooks(box, "claude-user", { PreToolUse: [{ hooks: [command(`echo $$ > ${pidFile}; sleep 100`)] }] });
    const agent = await connectInProcess(box.env);
    const { sessionId } = await newSession(agent.ctx, box.workspace);
    const turn = prompt(agent.ctx, sessionId, `touch ${marker}`);
    const [pid] = await pidsFrom([pidFile]);
    await agent.ctx.notify(acp.methods.agent.session.cancel, { sessionId });
    expect((await turn).stopReason).toBe("cancelled");
    await agent.close();
    expect(await allGone([pid!], 2000)).toBe(true);
    expect(existsSync(marker)).toBe(false);
    const [card] = cards(agent.client.view(sessionId));
    expect(outcomeOf(card)).toEqual({ by: "cancel", reason: "the turn was cancelled" });
    expect(cardHooks(card)[0]?.runs[0]?.status).toBe("cancelled");
    expect(agent.client.permissionRequests).toHaveLength(0);
  });
});

describe("permission hooks", () => {
  test("a PermissionRequest allow answers for the user: nobody is asked and the call runs", async () => {
    const ran = join(sandbox().root, "ran");
    const box = trustedBox("scripted/command", {
      PermissionRequest: [
        {
          matcher: "Bash",
          hooks: [
            command(
              `echo '{"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "allow"}}}'`,
            ),
          ],
        },
      ],
    });
    const { client } = await session(box, [`touch ${ran}`], { policy: choose("reject_once") });
    expect(client.permissionRequests).toHaveLength(0);
    expect(existsSync(ran)).toBe(true);
  });

  test("Notification hooks hear of the question while it is asked", async () => {
    const box = sandbox("scripted/command");
    const heard = join(box.root, "heard.json");
    writeHooks(box, "claude-user", {
      Notification: [{ matcher: "permission_prompt", hooks: [command(`cat > ${heard}`)] }],
    });
    const { client } = await session(box, ["echo hi"]);
    expect(client.permissionRequests).toHaveLength(1);
    expect(JSON.parse(readFileSync(heard, "utf8"))).toMatchObject({
      hook_event_name: "Notification",
      notification_type: "permission_prompt",
    });
  });
});

describe("PostToolUse", () => {
  test("additionalContext reaches the model next to the call's result", async () => {
    const box = sandbox("scripted/command");
    writeHooks(box, "claude-user", {
      PostToolUse: [
        {
          matcher: "Bash",
          hooks: [
            command(
              `echo '{"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "lint: 0 problems"}}'`,
            ),
          ],
        },
      ],
    });
    const { view, facts } = await session(box, ["echo hi"]);
    const [result] = toolResults(facts);
    expect(result).toContain("hi");
    expect(result).toMatch(/<hook_context source="[^"]+PostToolUse\[0\]\[0\]">\nlint: 0 problems\n<\/hook_context>$/);
    expect(cardHooks(cards(view)[0])[0]).toMatchObject({ event: "PostToolUse", decision: "none" });
  });

  test("a failed call fires PostToolUseFailure with the error", async () => {
    const box = sandbox("scripted/command");
    const payload = join(box.root, "payload.json");
    writeHooks(box, "claude-user", {
      PostToolUse: [{ hooks: [command("exit 0")] }],
      PostToolUseFailure: [{ hooks: [command(`cat > ${payload}`)] }],
    });
    await session(box, ["exit 3"]);
    const sent = JSON.parse(readFileSync(payload, "utf8")) as Record<string, unknown>;
    expect(sent).toMatchObject({ hook_event_name: "PostToolUseFailure", tool_name: "Bash", is_interrupt: false });
    expect(String(sent.error)).toContain("3");
  });
});

describe("prompts and the end of a turn", () => {
  test("a UserPromptSubmit block stops the prompt before the model: shown on its own, never sent", async () => {
    const box = trustedBox("scripted/plain", {
      UserPromptSubmit: [{ hooks: [command(`echo 'secrets are not allowed in prompts' >&2; exit 2`)] }],
    });
    const { view, facts, stopReasons } = await session(box, ["my password is hunter2"]);
    expect(stopReasons).toEqual(["end_turn"]);
    expect(facts.some((f) => f.kind === "step_ended")).toBe(false);
    const [shown] = standaloneHooks(view);
    expect(shown?.text).toBe("Hook UserPromptSubmit: blocked the prompt — secrets are not allowed in prompts.");
    expect(shown?.hook).toMatchObject({ event: "UserPromptSubmit", decision: "block" });
    expect(shown?.hook.toolCallId).toBeUndefined();
    expect(conversation(facts)).toEqual([]);
  });

  test("UserPromptSubmit and SessionStart context goes to the model with the prompt; SessionStart runs once", async () => {
    const box = sandbox("scripted/plain");
    writeHooks(box, "claude-user", {
      SessionStart: [{ matcher: "startup", hooks: [command("echo 'branch: main'")] }],
      UserPromptSubmit: [{ hooks: [command("echo 'today is a holiday'")] }],
    });
    const { facts } = await session(box, ["hello", "again"]);
    const users = conversation(facts).filter((m) => m.role === "user");
    const texts = users.map((m) => (m.role === "user" ? m.content.map((p) => (p.type === "text" ? p.text : "")) : []));
    expect(texts[0]?.[0]).toBe("hello");
    expect(texts[0]?.slice(1).join("\n")).toContain("branch: main");
    expect(texts[0]?.slice(1).join("\n")).toContain("today is a holiday");
    expect(texts[1]?.join("\n")).not.toContain("branch: main");
    expect(
      facts.filter((f) => f.kind === "hook_outcome" && f.event === "SessionStart" && f.status === "settled"),
    ).toHaveLength(1);
  });

  test("a Stop hook that keeps blocking is overridden at 8 blocks; stop_hook_active is false only the first time", async () => {
    const box = sandbox("scripted/plain");
    const log = join(box.root, "stop.jsonl");
    writeHooks(box, "claude-user", {
      Stop: [
        { hooks: [command(`cat >> ${log}; echo >> ${log}; echo '{"decision": "block", "reason": "keep going"}'`)] },
      ],
    });
    const { view, facts, stopReasons } = await session(box, ["hello"]);
    expect(stopReasons).toEqual(["end_turn"]);
    const runs = readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { stop_hook_active: boolean });
    expect(runs.map((r) => r.stop_hook_active)).toEqual([false, true, true, true, true, true, true, true]);
    expect(noticeMessages(view).map((n) => n.title)).toContain(
      "A Stop hook blocked the end of the turn 8 times in a row; the turn ends anyway",
    );
    const last = standaloneHooks(view).at(-1);
    expect(last?.hook.reason).toBe("keep going (overridden: too many blocks in a row)");
    // Each honoured block gave the model the reason as its next instruction.
    const instructions = conversation(facts)
      .filter((m) => m.role === "user")
      .slice(1);
    expect(instructions).toHaveLength(7);
  });

  test("a failed turn fires StopFailure", async () => {
    const box = sandbox("scripted/error");
    const payload = join(box.root, "payload.json");
    writeHooks(box, "claude-user", { StopFailure: [{ hooks: [command(`cat > ${payload}`)] }] });
    const agent = await connectInProcess(box.env);
    const { sessionId } = await newSession(agent.ctx, box.workspace);
    await prompt(agent.ctx, sessionId, "hi").catch(() => undefined);
    await agent.close();
    expect(JSON.parse(readFileSync(payload, "utf8"))).toMatchObject({
      hook_event_name: "StopFailure",
      error: "unknown",
    });
  });

  test("SessionEnd runs when a session that started closes", async () => {
    const box = sandbox("scripted/plain");
    const payload = join(box.root, "end.json");
    writeHooks(box, "claude-user", { SessionEnd: [{ hooks: [command(`cat > ${payload}`)] }] });
    await session(box, ["hello"]);
    expect(JSON.parse(readFileSync(payload, "utf8"))).toMatchObject({ hook_event_name: "SessionEnd", reason: "other" });
  });
});

describe("CLAUDE_ENV_FILE, without SessionStart hooks", () => {
  test("no env file is made for a session whose hooks do not include SessionStart", async () => {
    const box = sandbox("scripted/plain");
    writeHooks(box, "claude-user", { Stop: [{ hooks: [command("true")] }] });
    const { sessionId } = await session(box, ["hello"]);
    expect(existsSync(join(box.home, "env", `${sessionId}.sh`))).toBe(false);
  });
});

describe("SessionStart after a compaction", () => {
  test("runs with source compact, and what it prints is in the model's context with the turn's prompt", async () => {
    const box = sandbox("scripted/compaction");
    const payload = join(box.root, "start.json");
    writeHooks(box, "claude-user", {
      SessionStart: [
        { matcher: "compact", hooks: [command(`cat > ${payload}; echo 'Remember the codename: ORCHID'`)] },
      ],
    });
    const { facts } = await session(box, ["First", "Second", "Third"]);
    expect(facts.some((f) => f.kind === "compaction_ended" && f.outcome === "completed")).toBe(true);
    expect(JSON.parse(readFileSync(payload, "utf8"))).toMatchObject({
      hook_event_name: "SessionStart",
      source: "compact",
    });
    const messages = conversation(facts);
    const last = messages.findLast((m) => m.role === "user");
    expect(JSON.stringify(last)).toContain("Third");
    expect(JSON.stringify(last)).toContain("Remember the codename: ORCHID");
  });
});

describe("CLAUDE_ENV_FILE", () => {
  test("what SessionStart hooks export is set for the session's Bash commands; the file is private, the line that sources it is not journaled, and it goes with the session", async () => {
    const box = sandbox("scripted/command");
    writeHooks(box, "claude-user", {
      SessionStart: [{ hooks: [command(`echo 'export GREETING=hello-from-a-hook' >> "$CLAUDE_ENV_FILE"`)] }],
    });
    const { sessionId, view, facts } = await session(box, ['echo "greeting: $GREETING"']);
    const [card] = cards(view);
    expect(textOf(card?.content)).toContain("greeting: hello-from-a-hook");
    // The card and the journal keep the model's command, not the line that sources the file.
    expect(card?.rawInput).toMatchObject({ command: 'echo "greeting: $GREETING"' });
    const file = join(box.home, "env", `${sessionId}.sh`);
    expect(JSON.stringify(facts)).not.toContain(file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // Deleting the session deletes what its hooks exported.
    const again = await connectInProcess(box.env);
    try {
      await again.ctx.request(acp.methods.agent.session.delete, { sessionId });
    } finally {
      await again.close();
    }
    expect(existsSync(file)).toBe(false);
  });
});

describe("trust", () => {
  test("untrusted project hooks are skipped and reported; trusted, they run", async () => {
    const marker = join(sandbox().root, "marker");
    const box = sandbox("scripted/command");
    writeHooks(box, "claude-project", { PreToolUse: [{ matcher: "Bash", hooks: [command(deny("project says no"))] }] });
    const untrusted = await session(box, [`touch ${marker}`]);
    expect(existsSync(marker)).toBe(true);
    expect(cardHooks(cards(untrusted.view)[0])).toEqual([]);
    const [notice] = noticeMessages(untrusted.view);
    expect(notice?.title).toBe("1 project hook not run: this workspace is not trusted");
    expect(notice?.description).toContain(`verbatim trust ${box.workspace}`);

    trustWorkspace(box);
    const second = join(sandbox().root, "second");
    const trusted = await session(box, [`touch ${second}`]);
    expect(existsSync(second)).toBe(false);
    expect(outcomeOf(cards(trusted.view)[0])).toEqual({ by: "hook", reason: "project says no" });
    expect(noticeMessages(trusted.view)).toEqual([]);
  });

  test("unsupported handler types are reported as a notice", async () => {
    const box = sandbox("scripted/plain");
    writeHooks(box, "claude-user", { Stop: [{ hooks: [{ type: "agent", prompt: "check the work" }] }] });
    const { view } = await session(box, ["hello"]);
    const [notice] = noticeMessages(view);
    expect(notice?.title).toBe("Hook configuration: 1 problem");
    expect(notice?.description).toContain('"agent" hooks are not supported');
  });
});

describe("with a script file", () => {
  test("exec form runs the program with its arguments and the project dir substituted", async () => {
    const box = sandbox("scripted/command");
    const out = join(box.root, "args.txt");
    const path = script(box, "args.sh", `printf '%s|' "$@" > ${out}`);
    writeHooks(box, "claude-user", {
      PreToolUse: [{ hooks: [command(path, { args: ["a b", "${CLAUDE_PROJECT_DIR}"] })] }],
    });
    await session(box, ["echo hi"]);
    expect(readFileSync(out, "utf8")).toBe(`a b|${box.workspace}|`);
  });
});
