/**
 * Hook outcomes, live versus reload: on the card of the call they judged (a visible line and
 * `_meta.verbatim.hooks`) or as messages of their own, they come back identical in a fresh
 * process, and a reload runs no hook.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { choose } from "../../src/client/view-client.ts";
import { signalGroup } from "../../src/core/process-group.ts";
import { connectProcess, load, newSession, prompt, until } from "../support/acp-session.ts";
import { interruptedOf, outcomeOf, permissionOf, textOf } from "../support/cards.ts";
import { pidsFrom } from "../support/processes.ts";
import { cardHooks, command, noticeMessages, standaloneHooks, trustWorkspace, writeHooks } from "../support/hooks.ts";
import { sandbox } from "../support/workspace.ts";
import { cards, parity } from "./harness.ts";

const lines = (path: string) => (existsSync(path) ? readFileSync(path, "utf8").split("\n").filter(Boolean).length : 0);

describe("hook outcomes on cards", () => {
  test("a PreToolUse deny shows on the failed card with the hook's reason, live and after reload; the reload runs no hook", async () => {
    const box = sandbox("scripted/command");
    const runs = join(box.root, "runs.log");
    const marker = join(box.root, "marker");
    const denial = JSON.stringify({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: "this repository forbids touch",
      },
    });
    writeHooks(box, "claude-project", {
      PreToolUse: [{ matcher: "Bash", hooks: [command(`echo run >> ${runs}; echo '${denial}'`)] }],
    });
    trustWorkspace(box);
    const r = await parity(
      "scripted/command",
      async ({ ctx, sessionId }) => {
        expect((await prompt(ctx, sessionId, `touch ${marker}`)).stopReason).toBe("end_turn");
      },
      { box },
    );
    expect(existsSync(marker)).toBe(false);
    expect(lines(runs)).toBe(1);
    const [card] = cards(r.reloaded);
    expect(card?.status).toBe("failed");
    expect(outcomeOf(card)).toEqual({ by: "hook", reason: "this repository forbids touch" });
    expect(textOf(card?.content)).toContain("Hook PreToolUse: denied the call — this repository forbids touch.");
    expect(cardHooks(card)).toEqual([
      expect.objectContaining({
        event: "PreToolUse",
        decision: "deny",
        revision: 2,
        toolCallId: card?.toolCallId,
        originSessionId: r.sessionId,
      }),
    ]);
    expect(r.reloadAsked).toBe(0);
    expect(r.differences).toEqual([]);
  });

  test("a rewrite shows on the card, the question asks about the rewritten input, and it is what runs", async () => {
    const box = sandbox("scripted/command");
    const target = join(box.root, "out.txt");
    const rewrite = JSON.stringify({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        updatedInput: { command: `echo rewritten > ${target}`, description: "rewritten" },
      },
    });
    writeHooks(box, "claude-user", { PreToolUse: [{ matcher: "Bash", hooks: [command(`echo '${rewrite}'`)] }] });
    const r = await parity(
      "scripted/command",
      async ({ ctx, sessionId, client }) => {
        await prompt(ctx, sessionId, `echo original > ${target}`);
        expect(client.permissionRequests[0]?.toolCall.rawInput).toEqual({
          command: `echo rewritten > ${target}`,
          description: "rewritten",
        });
      },
      { box, policy: choose("allow_once") },
    );
    expect(readFileSync(target, "utf8")).toBe("rewritten\n");
    const [card] = cards(r.reloaded);
    expect(card).toMatchObject({
      status: "completed",
      title: `echo rewritten > ${target}`,
      rawInput: { command: `echo rewritten > ${target}`, description: "rewritten" },
    });
    expect(permissionOf(card)?.outcome).toMatchObject({ optionId: "allow_once" });
    expect(cardHooks(card)[0]?.inputRewritten).toBeDefined();
    expect(r.differences).toEqual([]);
  });

  test("several outcomes on one card (PreToolUse, PostToolUse) keep their order and ids after reload", async () => {
    const box = sandbox("scripted/command");
    writeHooks(box, "claude-user", {
      PreToolUse: [
        {
          matcher: "Bash",
          hooks: [
            command(
              `echo '{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow", "permissionDecisionReason": "echo is safe"}}'`,
            ),
          ],
        },
      ],
      PostToolUse: [
        {
          matcher: "Bash",
          hooks: [
            command(
              `echo '{"systemMessage": "output checked", "hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "looks fine"}}'`,
            ),
          ],
        },
      ],
    });
    const r = await parity(
      "scripted/command",
      async ({ ctx, sessionId }) => {
        await prompt(ctx, sessionId, "echo hi");
      },
      { box },
    );
    const [card] = cards(r.live);
    expect(cardHooks(card).map((h) => [h.event, h.decision])).toEqual([
      ["PreToolUse", "allow"],
      ["PostToolUse", "none"],
    ]);
    expect(textOf(card?.content)).toContain("Hook PreToolUse: allowed the call — echo is safe.");
    expect(textOf(card?.content)).toContain("Hook message: output checked");
    expect(cardHooks(cards(r.reloaded)[0])).toEqual(cardHooks(card));
    expect(r.differences).toEqual([]);
  });
});

describe("a session killed while a hook runs", () => {
  test("the card shows the hook running as it was live, then that the call never ran", async () => {
    const box = sandbox("scripted/command");
    const pidFile = join(box.root, "hook.pid");
    writeHooks(box, "claude-user", {
      PreToolUse: [
        {
          matcher: "Bash",
          hooks: [command(`echo $$ > ${pidFile}; sleep 100`, { statusMessage: "Checking the command" })],
        },
      ],
    });
    const live = await connectProcess(box.env);
    const { sessionId } = await newSession(live.ctx, box.workspace);
    void prompt(live.ctx, sessionId, "echo hi").catch(() => undefined);
    const [pid] = await pidsFrom([pidFile]);
    await until(() => cardHooks(cards(live.client.view(sessionId))[0]).length === 1, "the running outcome on the card");
    live.agent!.kill(9);
    await live.agent!.exited;
    // The hook leads its own process group: it outlives the agent, so the test ends it.
    signalGroup(pid!, "SIGKILL");
    await live.close();
    const reopened = await connectProcess(box.env);
    try {
      await load(reopened.ctx, sessionId, box.workspace);
      const [before] = cards(live.client.view(sessionId));
      const [after] = cards(reopened.client.view(sessionId));
      expect(textOf(before?.content)).toBe(
        `Hook PreToolUse: running echo $$ > ${pidFile}; sleep 100 (Checking the command)…`,
      );
      expect(textOf(after?.content)).toBe(
        `${textOf(before?.content)}\nInterrupted: verbatim stopped before this call ran; it never ran.`,
      );
      expect(cardHooks(after)).toEqual(cardHooks(before));
      expect(interruptedOf(after)).toEqual({ mayHaveRun: false });
    } finally {
      await reopened.close();
    }
  });
});

describe("hook outcomes on their own", () => {
  test("a blocked prompt and a Stop hook's outcome show as messages of their own, live and after reload", async () => {
    const box = sandbox("scripted/plain");
    writeHooks(box, "claude-user", {
      UserPromptSubmit: [
        { hooks: [command(`grep -q forbidden && { echo 'that word is forbidden' >&2; exit 2; }; exit 0`)] },
      ],
      Stop: [{ hooks: [command(`echo '{"systemMessage": "remember to commit"}'`)] }],
    });
    const r = await parity(
      "scripted/plain",
      async ({ ctx, sessionId }) => {
        await prompt(ctx, sessionId, "a forbidden prompt");
        await prompt(ctx, sessionId, "a fine prompt");
      },
      { box },
    );
    const shown = standaloneHooks(r.live);
    expect(shown.map((s) => s.text)).toEqual([
      "Hook UserPromptSubmit: blocked the prompt — that word is forbidden.",
      "Hook UserPromptSubmit: done.",
      "Hook Stop: done.\nHook message: remember to commit",
    ]);
    expect(shown.every((s) => s.hook.toolCallId === undefined && s.hook.originSessionId === r.sessionId)).toBe(true);
    expect(standaloneHooks(r.reloaded)).toEqual(shown);
    expect(r.differences).toEqual([]);
  });

  test("the notice about untrusted project hooks is shown live and after reload", async () => {
    const box = sandbox("scripted/plain");
    writeHooks(box, "claude-project", { Stop: [{ hooks: [command("echo never")] }] });
    const r = await parity(
      "scripted/plain",
      async ({ ctx, sessionId }) => {
        await prompt(ctx, sessionId, "hello");
      },
      { box },
    );
    expect(noticeMessages(r.live).map((n) => n.title)).toEqual([
      "1 project hook not run: this workspace is not trusted",
    ]);
    expect(noticeMessages(r.reloaded)).toEqual(noticeMessages(r.live));
    expect(r.differences).toEqual([]);
  });
});
