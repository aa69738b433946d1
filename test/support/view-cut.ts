/**
 * A session's live view cut at a message: what a client held right after the last update of
 * that message and the usage updates that followed it, unless a tool call of the same step
 * follows them (the point a fork at the message, or a rewind to it, keeps: the end of its step
 * only when the step made no call, replay/message-points.ts). Folded from the updates the client
 * received.
 */
import type { SessionNotification } from "@agentclientprotocol/sdk";
import { fold, type ViewModel } from "../../src/view/view-model.ts";

export function viewCutAt(
  notifications: readonly SessionNotification[],
  sessionId: string,
  messageId: string,
): ViewModel {
  const updates = notifications.filter((n) => n.sessionId === sessionId).map((n) => n.update);
  const last = updates.findLastIndex((u) => "messageId" in u && u.messageId === messageId);
  if (last === -1) throw new Error(`session ${sessionId} was sent no message ${messageId}`);
  let end = last + 1;
  while (updates[end]?.sessionUpdate === "usage_update") end++;
  if (updates[end]?.sessionUpdate === "tool_call") end = last + 1;
  return fold(updates.slice(0, end));
}

/** The ids of a view's messages of one role, in timeline order. */
export function messageIds(view: ViewModel, role: "user" | "agent" | "thought"): string[] {
  return view.timeline
    .filter((k) => k.startsWith("message:"))
    .map((k) => k.slice("message:".length))
    .filter((id) => view.messages[id]?.role === role);
}

/** The agent message a view shows last before its `n`-th user message (0-based): the end of the turn before. */
export function answerBefore(view: ViewModel, n: number): string {
  const prompt = view.timeline.indexOf(`message:${messageIds(view, "user")[n]}`);
  const before = view.timeline
    .slice(0, prompt)
    .findLast((k) => k.startsWith("message:") && view.messages[k.slice("message:".length)]?.role === "agent");
  if (!before) throw new Error(`no agent message before user message ${n}`);
  return before.slice("message:".length);
}
