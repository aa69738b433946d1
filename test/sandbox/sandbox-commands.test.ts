/**
 * Commands in the OS sandbox, driven through a spawned agent and the scripted model, each checked
 * live and after a reload (the parity harness): a write inside the session's directories runs
 * unasked, a write outside fails and the refusal is on the card; a planted private key cannot be
 * read; a host not allowed is refused, and an "always" answer puts it on the allowlist so the next
 * command reaches it (a loopback server of the test's own, reached through the sandbox's proxy).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { PermissionPolicy } from "../../src/client/view-client.ts";
import { choose } from "../../src/client/view-client.ts";
import { prompt } from "../support/acp-session.ts";
import { textOf } from "../support/cards.ts";
import { exportedFacts, ofKind } from "../support/exported-facts.ts";
import { sandboxedBox, sandboxTestsSkipped } from "../support/sandbox-env.ts";
import { cards, parity } from "../parity/harness.ts";

const skipped = await sandboxTestsSkipped("test/sandbox/sandbox-commands.test.ts");

const bash = (command: string) => `Bash ${JSON.stringify({ command })}`;

/** Refuses every question: a command that runs was not asked about. */
const refuseAll = choose("reject_once");

describe.skipIf(skipped !== undefined)("commands in the OS sandbox", () => {
  test("a write inside the session's directories runs unasked; a write outside fails, and the refusal is on the card live and after a reload", async () => {
    const box = sandboxedBox("scripted/call");
    const outside = join(box.root, "outside");
    mkdirSync(outside);
    const r = await parity(
      "scripted/call",
      async ({ ctx, sessionId }) => {
        await prompt(ctx, sessionId, bash(`echo inside > inside.txt; echo outside > ${outside}/x.txt; echo done`));
      },
      { box, policy: refuseAll },
    );
    expect(r.differences).toEqual([]);
    expect(readFileSync(join(box.workspace, "inside.txt"), "utf8")).toBe("inside\n");
    expect(existsSync(join(outside, "x.txt"))).toBe(false);
    const facts = await exportedFacts(box.env, r.sessionId);
    expect(ofKind(facts, "permission_requested")).toEqual([]);
    expect(ofKind(facts, "command_sandboxed")[0]?.policy.writable).toContain(box.workspace);
    expect(ofKind(facts, "sandbox_violations")[0]?.violations).toEqual([
      expect.objectContaining({ type: "write", path: `${outside}/x.txt` }),
    ]);
    for (const view of [r.live, r.reloaded]) {
      const [card] = cards(view);
      expect(textOf(card?.content)).toContain(`Sandbox refused: writing ${outside}/x.txt.`);
      expect(
        (card?.meta as { verbatim: { sandbox: { violations: unknown[] } } }).verbatim.sandbox.violations,
      ).toHaveLength(1);
    }
    // The model is told what was refused.
    const result = ofKind(facts, "tool_call_finished")[0]?.result.text;
    expect(result).toContain(`Sandbox refused: writing ${outside}/x.txt.`);
  });

  test("a planted private key in ~/.ssh cannot be read by a command", async () => {
    const box = sandboxedBox("scripted/call");
    mkdirSync(join(box.userHome, ".ssh"), { mode: 0o700 });
    writeFileSync(join(box.userHome, ".ssh", "id_rsa"), "PLANTED-PRIVATE-KEY\n", { mode: 0o600 });
    const r = await parity(
      "scripted/call",
      async ({ ctx, sessionId }) => {
        await prompt(ctx, sessionId, bash("cat ~/.ssh/id_rsa; echo exit=$?"));
      },
      { box, policy: refuseAll },
    );
    expect(r.differences).toEqual([]);
    const facts = await exportedFacts(box.env, r.sessionId);
    expect(JSON.stringify(facts)).not.toContain("PLANTED-PRIVATE-KEY");
    const result = ofKind(facts, "tool_call_finished")[0]?.result.text ?? "";
    expect(result).toContain("exit=1");
    expect(ofKind(facts, "command_sandboxed")[0]?.policy.unreadable).toContain(join(box.userHome, ".ssh"));
  });

  test("a host not allowed is refused on the card; an always answer allows it, and the next command reaches it", async () => {
    const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("hello through the proxy") });
    afterAll(() => server.stop(true));
    const url = `http://127.0.0.1:${server.port}/`;
    // Through the sandbox's proxy (HTTP_PROXY), which loopback addresses skip unless NO_PROXY is emptied.
    const fetchCommand = `NO_PROXY= no_proxy= ${process.execPath} -e 'const r = await fetch("${url}"); console.log(r.status, await r.text())'`;
    const box = sandboxedBox("scripted/call");
    const allowHost: PermissionPolicy = (request) => {
      const option = request.options.find((o) => o.optionId === "allow_hosts_always");
      return { outcome: option ? { outcome: "selected", optionId: option.optionId } : { outcome: "cancelled" } };
    };
    const r = await parity(
      "scripted/call",
      async ({ ctx, sessionId }) => {
        await prompt(ctx, sessionId, bash(fetchCommand));
        await prompt(ctx, sessionId, bash(fetchCommand));
      },
      { box, policy: allowHost },
    );
    expect(r.differences).toEqual([]);
    const facts = await exportedFacts(box.env, r.sessionId);
    const [blocked] = ofKind(facts, "sandbox_violations");
    expect(blocked?.violations).toEqual([
      expect.objectContaining({ type: "network", host: "127.0.0.1", port: server.port }),
    ]);
    expect(ofKind(facts, "permission_rule_added")).toEqual([
      expect.objectContaining({ toolName: "WebFetch", rule: "WebFetch(domain:127.0.0.1)", decision: "allow" }),
    ]);
    const [first, second] = ofKind(facts, "tool_call_finished").map((f) => f.result.text);
    expect(first).not.toContain("hello through the proxy");
    expect(first).toContain("The user then allowed 127.0.0.1 for later commands");
    expect(second).toContain("200 hello through the proxy");
    expect(ofKind(facts, "command_sandboxed")[1]?.policy.allowedHosts).toContain("127.0.0.1");
    const [card] = cards(r.reloaded);
    expect(textOf(card?.content)).toContain(`Sandbox refused: connecting to 127.0.0.1:${server.port}.`);
  });
});
