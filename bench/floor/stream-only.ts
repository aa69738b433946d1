/**
 * The live-streaming floor: the smallest agent on the ACP SDK that streams a provider's chunks
 * to the client. It answers `initialize`, `session/new` and `session/prompt`, and sends each
 * chunk as an `agent_message_chunk` the moment the provider yields it, and takes the next event
 * once the SDK has written it (so nothing piles up): no journal, no projection. Built and fed
 * the same way as verbatim's live benchmark.
 */
import * as acp from "@agentclientprotocol/sdk";
import { chunkCount, chunkPause, stampedChunks } from "../lib/stamped-provider.ts";
import { floorStdio } from "./stdio.ts";

acp
  .agent({ name: "stream-floor" })
  .onRequest(acp.methods.agent.initialize, () => ({
    protocolVersion: acp.PROTOCOL_VERSION,
    agentCapabilities: {},
    authMethods: [],
  }))
  .onRequest(acp.methods.agent.session.new, () => ({ sessionId: "floor" }))
  .onRequest(acp.methods.agent.session.prompt, async ({ params, client }) => {
    for await (const event of stampedChunks(chunkCount(), chunkPause())) {
      if (event.type !== "text_delta") continue;
      await client.notify(acp.methods.client.session.update, {
        sessionId: params.sessionId,
        update: {
          sessionUpdate: "agent_message_chunk",
          content: { type: "text", text: event.text },
          messageId: "msg_floor",
        },
      });
    }
    return { stopReason: "end_turn" };
  })
  .connect(floorStdio());
