/** `_session/steering`, the adapters' extension method: sent as any method, with its result's shape. */
import type { ClientContext } from "@agentclientprotocol/sdk";

export type SteeringResult =
  | { outcome: "injected" | "startedNewTurn" }
  | { outcome: "promptRequired"; reason: "noRunningTurn" };

export function steer(
  ctx: ClientContext,
  sessionId: string,
  text: string,
  options: { idleBehavior?: "promptRequired" } = {},
): Promise<SteeringResult> {
  const send = ctx.request.bind(ctx) as unknown as (method: string, params: unknown) => Promise<SteeringResult>;
  return send("_session/steering", {
    sessionId,
    prompt: [{ type: "text", text }],
    ...(options.idleBehavior ? { _meta: { steering: { idleBehavior: options.idleBehavior } } } : {}),
  });
}
