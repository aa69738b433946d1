/**
 * A `session/delete` that another live process refuses (it holds the session's lease) changes
 * nothing: the session stays in the journal and stays open on the connection that asked.
 */
import { describe, expect, test } from "bun:test";
import { initializedRawAgent } from "../support/raw-client.ts";
import { sandbox } from "../support/workspace.ts";

describe("a refused session/delete", () => {
  test("does not close the session on this connection", async () => {
    const box = sandbox("scripted/plain");
    const owner = await initializedRawAgent(box.env);
    const other = await initializedRawAgent(box.env);
    try {
      const created = await owner.request("session/new", { cwd: box.workspace, mcpServers: [] });
      const { sessionId } = created.result as { sessionId: string };
      expect(
        (await owner.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "Hi" }] })).result,
      ).toEqual({ stopReason: "end_turn" });
      expect(
        (await other.request("session/load", { sessionId, cwd: box.workspace, mcpServers: [] })).error,
      ).toBeUndefined();
      const refused = await other.request("session/delete", { sessionId });
      expect(refused.error?.message).toContain("open for writing in another verbatim process");
      // The owner lets go; the session is still open on the other connection: a prompt runs without loading it again.
      owner.endInput();
      expect(await owner.exited).toBe(0);
      const next = await other.request("session/prompt", {
        sessionId,
        prompt: [{ type: "text", text: "Still here?" }],
      });
      expect(next.error).toBeUndefined();
      expect(next.result).toEqual({ stopReason: "end_turn" });
    } finally {
      await owner.close();
      await other.close();
    }
  });
});
