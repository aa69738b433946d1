/**
 * Asking the client for permission: `session/request_permission` whose `toolCall` is exactly the
 * card update the `permission_requested` fact projected (design.md's permission contract), so a
 * reload, which shows that update, shows the question as it was asked. A cancelled turn sends
 * `$/cancel_request` for the open question.
 */
import type { AgentContext } from "@agentclientprotocol/sdk";
import { methods } from "@agentclientprotocol/sdk";
import type { PermissionAsker } from "../core/permissions/permission-gate.ts";
import type { Projector } from "../replay/project.ts";

export function askClient(client: AgentContext, sessionId: string, projector: Projector): PermissionAsker {
  return async ({ requestId, toolCallId, options }, signal) => {
    const card = projector.card(toolCallId);
    if (!card) throw new Error(`the call ${toolCallId} has no card to ask about`);
    const { sessionUpdate: _update, ...toolCall } = projector.permissionToolCall(card);
    const response = await client.request(
      methods.client.session.requestPermission,
      // The engine-minted question id travels with the question; the card carries only the
      // contract's {options, outcome}.
      { sessionId, toolCall, options, _meta: { verbatim: { requestId } } },
      { cancellationSignal: signal },
    );
    return response.outcome;
  };
}
