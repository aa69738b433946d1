/**
 * Asking the client for permission: `session/request_permission` whose `toolCall` is exactly the
 * card update the `permission_requested` fact projected (design.md's permission contract), so a
 * reload, which shows that update, shows the question as it was asked. A cancelled turn sends
 * `$/cancel_request` for the open question.
 */
import type { AgentContext } from "@agentclientprotocol/sdk/unstable";
import { methods } from "@agentclientprotocol/sdk/unstable";
import type { PermissionAsker } from "../core/permissions/permission-questions.ts";
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
      { sessionId, toolCall, options, _meta: { verbatim: { requestId, originSessionId: sessionId } } },
      { cancellationSignal: signal },
    );
    return response.outcome;
  };
}

/**
 * Asking about a subagent's call. The client knows only the root session and its cards, so the
 * question is about the parent's `Task` card as it shows now (the card's content already says
 * which call waits); `_meta.verbatim` marks the question as the child session's: its
 * `originSessionId` and `originToolCallId` are the child's, `parentToolCallId` the card's.
 */
export function askClientForSubagent(
  client: AgentContext,
  sessionId: string,
  projector: Projector,
  origin: { sessionId: string; parentToolCallId: string },
): PermissionAsker {
  return async ({ requestId, toolCallId, options }, signal) => {
    const card = projector.card(origin.parentToolCallId);
    if (!card) throw new Error(`the subagent's Task call ${origin.parentToolCallId} has no card to ask about`);
    const { sessionUpdate: _update, ...toolCall } = projector.permissionToolCall(card);
    const response = await client.request(
      methods.client.session.requestPermission,
      {
        sessionId,
        toolCall,
        options,
        _meta: {
          verbatim: {
            requestId,
            originSessionId: origin.sessionId,
            originToolCallId: toolCallId,
            parentToolCallId: origin.parentToolCallId,
          },
        },
      },
      { cancellationSignal: signal },
    );
    return response.outcome;
  };
}
