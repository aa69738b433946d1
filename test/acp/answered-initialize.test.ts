/**
 * An `initialize` the start path answered (src/start/early-initialize.ts) reaches the app again
 * under its own id, for the SDK to handle: the app gives back the start path's answer as written,
 * without reading the config again (a load that follows waits for this request to be handled).
 */
import * as acp from "@agentclientprotocol/sdk/unstable";
import { expect, spyOn, test } from "bun:test";
import { createAgentApp } from "../../src/acp/agent-app.ts";
import { ANSWERED_ID } from "../../src/acp/answered-initialize.ts";
import * as catalog from "../../src/core/providers/catalog.ts";
import { withProcessEnv } from "../support/process-env.ts";
import { sandbox } from "../support/workspace.ts";

const request = { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} };

/** Sends `initialize` under `id` to a fresh app (`answered`: what the start path wrote) and returns its answer. */
async function initializeAs(id: string | number, answered?: { request: Record<string, unknown>; answer: string }) {
  const agent = createAgentApp(undefined, answered ? { answered } : {});
  const stream = agent.inMemory();
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  await writer.write({ jsonrpc: "2.0", id, method: acp.methods.agent.initialize, params: request });
  const { value } = await reader.read();
  await agent.closeAll();
  return value as { id: unknown; result?: { agentInfo?: { version?: string } } };
}

test("the already-answered initialize gets the start path's answer, and the config is not read again", async () => {
  const box = sandbox();
  const catalogs = spyOn(catalog, "catalogFromEnv");
  try {
    await withProcessEnv(box.env, async () => {
      // A marker no answer the app makes itself carries.
      const result = { protocolVersion: acp.PROTOCOL_VERSION, agentInfo: { name: "verbatim", version: "early-1" } };
      const answer = `${JSON.stringify({ jsonrpc: "2.0", id: 7, result })}\n`;
      const initialize = { jsonrpc: "2.0", id: 7, method: "initialize", params: request };
      const answered = await initializeAs(ANSWERED_ID, { request: initialize, answer });
      expect(answered.result).toEqual(result);
      expect(catalogs).not.toHaveBeenCalled();
      // Any other initialize is the app's own, from the config (the control).
      const own = await initializeAs(8, { request: initialize, answer });
      expect(own.result?.agentInfo?.version).not.toBe("early-1");
      expect(catalogs).toHaveBeenCalled();
    });
  } finally {
    catalogs.mockRestore();
  }
});
