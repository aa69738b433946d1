/**
 * Every way a command runs is confined: in the client's terminal, in a subagent, in plan mode
 * (read-only instead of refused), in the background. And what runs outside the sandbox asks:
 * `dangerouslyDisableSandbox`, and every command where the sandbox cannot start (with a notice).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { choose } from "../../src/client/view-client.ts";
import { prompt, until } from "../support/acp-session.ts";
import { textOf } from "../support/cards.ts";
import { ClientServices } from "../support/client-services.ts";
import { exportedFacts, ofKind } from "../support/exported-facts.ts";
import { sandboxedBox, sandboxTestsSkipped } from "../support/sandbox-env.ts";
import { cards, parity } from "../parity/harness.ts";

const skipped = await sandboxTestsSkipped("test/sandbox/sandbox-paths.test.ts");

const call = (name: string, input: Record<string, unknown>) => `${name} ${JSON.stringify(input)}`;
const refuseAll = choose("reject_once");

describe.skipIf(skipped !== undefined)("every way a command runs", () => {
  test("a command sent to the client's terminal runs the wrapped command line, and a write outside fails", async () => {
    const box = sandboxedBox("scripted/command");
    const outside = join(box.root, "outside");
    mkdirSync(outside);
    const services = new ClientServices({ terminal: true });
    const r = await parity(
      "scripted/command",
      async ({ ctx, sessionId }) => {
        await prompt(ctx, sessionId, `echo hi > ${outside}/t.txt; echo ran`);
      },
      { box, services, policy: refuseAll },
    );
    expect(r.differences).toEqual([]);
    expect(services.calls[0]).toBe("terminal/create");
    expect(existsSync(join(outside, "t.txt"))).toBe(false);
    const facts = await exportedFacts(box.env, r.sessionId);
    expect(ofKind(facts, "permission_requested")).toEqual([]);
    expect(ofKind(facts, "sandbox_violations")[0]?.violations).toEqual([
      expect.objectContaining({ type: "write", path: `${outside}/t.txt` }),
    ]);
    expect(textOf(cards(r.reloaded)[0]?.content)).toContain(`Sandbox refused: writing ${outside}/t.txt.`);
  });

  test("a subagent's command runs confined, unasked", async () => {
    const box = sandboxedBox("scripted/subagent");
    const r = await parity(
      "scripted/subagent",
      async ({ ctx, sessionId }) => {
        await prompt(ctx, sessionId, "Count the README's lines with a command");
      },
      { box, policy: refuseAll },
    );
    expect(r.differences).toEqual([]);
    const task = cards(r.live)[0];
    const child = (task?.meta as { verbatim: { subagent: { sessionId: string } } }).verbatim.subagent.sessionId;
    const facts = await exportedFacts(box.env, child);
    expect(ofKind(facts, "command_sandboxed")).toHaveLength(1);
    expect(ofKind(facts, "permission_requested")).toEqual([]);
    expect(ofKind(facts, "tool_call_finished").at(-1)?.result.text).toContain("4 README.md");
  });

  test("plan mode runs a command read-only in the sandbox instead of refusing it", async () => {
    const box = sandboxedBox("scripted/call");
    const r = await parity(
      "scripted/call",
      async ({ ctx, sessionId }) => {
        await ctx.request("session/set_mode", { sessionId, modeId: "plan" });
        await prompt(ctx, sessionId, call("Bash", { command: "wc -l README.md; echo x > plan.txt" }));
      },
      { box, policy: refuseAll },
    );
    expect(r.differences).toEqual([]);
    expect(existsSync(join(box.workspace, "plan.txt"))).toBe(false);
    const facts = await exportedFacts(box.env, r.sessionId);
    expect(ofKind(facts, "tool_call_refused")).toEqual([]);
    expect(ofKind(facts, "command_sandboxed")[0]?.policy).toEqual(
      expect.objectContaining({ writable: [], readOnly: true }),
    );
    expect(ofKind(facts, "tool_call_finished")[0]?.result.text).toContain("4 README.md");
    expect(ofKind(facts, "sandbox_violations")[0]?.violations).toEqual([
      expect.objectContaining({ type: "write", path: join(box.workspace, "plan.txt") }),
    ]);
  });

  test("a background command runs in the sandbox too: its policy and refusals are on its card", async () => {
    const box = sandboxedBox("scripted/call");
    const outside = join(box.root, "outside");
    mkdirSync(outside);
    const r = await parity(
      "scripted/call",
      async ({ ctx, client, sessionId }) => {
        await prompt(
          ctx,
          sessionId,
          call("Bash", { command: `echo job > ${outside}/job.txt; echo done`, run_in_background: true }),
        );
        await until(() => textOf(cards(client.view(sessionId))[0]?.content).includes("ended"), "the job's end");
      },
      { box, policy: refuseAll },
    );
    expect(r.differences).toEqual([]);
    expect(existsSync(join(outside, "job.txt"))).toBe(false);
    const facts = await exportedFacts(box.env, r.sessionId);
    expect(ofKind(facts, "command_sandboxed")).toHaveLength(1);
    const kinds = facts.map((f) => f.kind);
    // The refusal is on the card before the job's end.
    expect(kinds.indexOf("sandbox_violations")).toBeLessThan(kinds.indexOf("job_ended"));
    expect(textOf(cards(r.reloaded)[0]?.content)).toContain(`Sandbox refused: writing ${outside}/job.txt.`);
  });
});

describe.skipIf(skipped !== undefined)("what runs outside the sandbox asks", () => {
  test("dangerouslyDisableSandbox: true is an ordinary permission question; refused, the command does not run", async () => {
    const box = sandboxedBox("scripted/call");
    const r = await parity(
      "scripted/call",
      async ({ ctx, sessionId }) => {
        await prompt(
          ctx,
          sessionId,
          call("Bash", { command: "echo x > unsandboxed.txt", dangerouslyDisableSandbox: true }),
        );
      },
      { box, policy: refuseAll },
    );
    expect(r.differences).toEqual([]);
    expect(existsSync(join(box.workspace, "unsandboxed.txt"))).toBe(false);
    const facts = await exportedFacts(box.env, r.sessionId);
    expect(ofKind(facts, "permission_requested")).toHaveLength(1);
    expect(ofKind(facts, "command_sandboxed")).toEqual([]);
  });

  test("where the sandbox cannot start, the session says so once and every command asks", async () => {
    // A PATH without bubblewrap: bash and the few tools the agent's commands use, nothing else.
    const bin = mkdtempSync(join(tmpdir(), "verbatim-nobwrap-"));
    afterAll(() => rmSync(bin, { recursive: true, force: true }));
    for (const tool of ["bash", "sh", "echo", "cat", "which", "socat", "rg"])
      if (existsSync(`/usr/bin/${tool}`)) symlinkSync(`/usr/bin/${tool}`, join(bin, tool));
    const box = sandboxedBox("scripted/call");
    box.env.PATH = bin;
    const r = await parity(
      "scripted/call",
      async ({ ctx, sessionId }) => {
        await prompt(ctx, sessionId, call("Bash", { command: "echo one" }));
        await prompt(ctx, sessionId, call("Bash", { command: "echo two" }));
      },
      { box, policy: refuseAll },
    );
    expect(r.differences).toEqual([]);
    const facts = await exportedFacts(box.env, r.sessionId);
    expect(ofKind(facts, "permission_requested")).toHaveLength(2);
    const notices = ofKind(facts, "notice_shown").filter((n) => n.title.startsWith("Commands are not sandboxed here"));
    expect(notices).toHaveLength(1);
    expect(notices[0]?.description).toContain("bubblewrap");
  });
});
