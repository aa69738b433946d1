/**
 * Order on the wire is the order of effect: a `session/cancel` that arrived before the answer to a
 * permission question wins, even when both come in one write; the allowed call never starts.
 */
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { initializedRawAgent, type RawMessage } from "../support/raw-client.ts";
import { sandbox } from "../support/workspace.ts";

type Update = { sessionUpdate?: string; toolCallId?: string; status?: string };
const updateOf = (m: RawMessage): Update | undefined =>
  m.method === "session/update" ? ((m.params as { update?: Update }).update ?? undefined) : undefined;

describe("a cancel followed at once by an allow answer", () => {
  test("the cancel wins: the turn ends cancelled and the command never starts", async () => {
    const box = sandbox("scripted/command");
    const marker = join(box.root, "ran");
    const agent = await initializedRawAgent(box.env);
    try {
      const created = await agent.request("session/new", { cwd: box.workspace, mcpServers: [] });
      const { sessionId } = created.result as { sessionId: string };
      agent.send(
        JSON.stringify({
          jsonrpc: "2.0",
          id: "turn",
          method: "session/prompt",
          params: { sessionId, prompt: [{ type: "text", text: `touch ${marker}` }] },
        }),
      );
      await agent.until(
        () => agent.messages.some((m) => m.method === "session/request_permission"),
        "the permission question",
      );
      const question = agent.messages.find((m) => m.method === "session/request_permission") as RawMessage;
      const { options } = question.params as { options: { optionId: string; kind: string }[] };
      const allow = options.find((o) => o.kind === "allow_once")?.optionId;
      const cancel = JSON.stringify({ jsonrpc: "2.0", method: "session/cancel", params: { sessionId } });
      const answer = JSON.stringify({
        jsonrpc: "2.0",
        id: question.id,
        result: { outcome: { outcome: "selected", optionId: allow } },
      });
      await agent.send(`${cancel}\n${answer}\n`);
      const ended = await agent.response("turn");
      expect(ended.result).toEqual({ stopReason: "cancelled" });
      const statuses = agent.messages
        .map(updateOf)
        .filter((u) => u?.sessionUpdate === "tool_call_update")
        .map((u) => u?.status);
      expect(statuses).not.toContain("in_progress");
      expect(statuses).toContain("failed");
      expect(existsSync(marker)).toBe(false);
    } finally {
      await agent.close();
    }
  });
});
