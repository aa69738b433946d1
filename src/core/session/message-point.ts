/** Finding the message a fork or a rewind names, as the client knows it. */
import { EngineError } from "../errors.ts";
import type { MessagePoint, MessagePoints } from "../../replay/message-points.ts";

/**
 * The point of a user or agent message the client is shown. An unknown id (never sent, or no
 * longer shown: a refused turn's, a rewound one's) and a thought's id are refused: a thought is
 * not a place the conversation can continue from.
 */
export function messagePoint(points: MessagePoints, sessionId: string, messageId: string): MessagePoint {
  const point = points.get(messageId);
  if (!point) {
    throw new EngineError("unknown_message", `session ${sessionId} shows no message ${messageId}`, {
      sessionId,
      messageId,
    });
  }
  if (point.role === "thought") {
    throw new EngineError(
      "unknown_message",
      `message ${messageId} of session ${sessionId} is the agent's thinking; name a user or agent message`,
      { sessionId, messageId, role: "thought" },
    );
  }
  return point;
}
