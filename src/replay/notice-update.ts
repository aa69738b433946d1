/**
 * How a notice is shown (a retry, a pruning, what the model was given, ...): the ACP `notice`
 * update when the client advertised it, live only (a reload does not show it again); otherwise an
 * agent message of its own, with the notice under `_meta.verbatim.notice`, replayed. Pure.
 */
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import type { FactOf } from "../journal/facts/index.ts";

/** How the session is projected: whether the client takes ACP notices, and whether this is a reload. */
export type NoticeClient = { readonly notices: boolean; readonly replay: boolean };

/** A notice's updates; `context` (the context facts' data) goes under `_meta.verbatim.context` beside it. */
export function noticeUpdates(
  client: NoticeClient,
  fact: Pick<FactOf<"notice_shown">, "messageId" | "severity" | "title" | "description">,
  context?: Record<string, unknown>,
): SessionUpdate[] {
  const { severity, title, description } = fact;
  const meta = context ? { context } : {};
  if (client.notices) {
    if (client.replay) return [];
    return [
      {
        sessionUpdate: "notice",
        severity,
        title,
        ...(description ? { description } : {}),
        ...(context ? { _meta: { verbatim: meta } } : {}),
      },
    ];
  }
  const text = description ? `${title}: ${description}` : title;
  return [
    {
      sessionUpdate: "agent_message_chunk",
      content: { type: "text", text },
      messageId: fact.messageId,
      _meta: { verbatim: { notice: { severity, title, ...(description ? { description } : {}) }, ...meta } },
    },
  ];
}
