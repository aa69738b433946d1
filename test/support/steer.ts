/** `_session/steering`, the adapters' extension method, as a client calls it (src/protocol/extensions.ts). */
import type { ClientContext } from "@agentclientprotocol/sdk";
import { type ExtensionResult, requestExtension, STEERING_METHOD } from "../../src/protocol/extensions.ts";

export type SteeringResult = ExtensionResult<typeof STEERING_METHOD>;

export function steer(
  ctx: ClientContext,
  sessionId: string,
  text: string,
  options: { idleBehavior?: "promptRequired" } = {},
): Promise<SteeringResult> {
  return requestExtension(ctx, STEERING_METHOD, {
    sessionId,
    prompt: [{ type: "text", text }],
    ...(options.idleBehavior ? { _meta: { steering: { idleBehavior: options.idleBehavior } } } : {}),
  });
}
