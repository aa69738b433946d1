/** `session/fork` at a message (the fork-at-message RFD's `messageId`, which SDK 2.4.0's request type lacks). */
import type { ClientContext } from "@agentclientprotocol/sdk";
import type { ForkSessionRequest, ForkSessionResponse } from "@agentclientprotocol/sdk/unstable";

export function forkAt(
  ctx: ClientContext,
  params: ForkSessionRequest & { messageId: unknown },
): Promise<ForkSessionResponse> {
  const send = ctx.request.bind(ctx) as unknown as (method: string, params: unknown) => Promise<ForkSessionResponse>;
  return send("session/fork", params);
}
